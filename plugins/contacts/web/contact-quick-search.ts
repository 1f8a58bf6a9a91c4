import { defineQuickSearchProvider } from '@atrium/sdk';
import { ROLE_LABELS } from '../shared/contact-roles.js';
import { searchContacts, type Contact } from './contacts-api.js';
import { contactPageRoute } from './routes.js';

/** Spec: quick search shows 5 results. */
const QUICK_SEARCH_SIZE = 5;

/** `g n` (bound by the shell to the Contact provider): contacts by name; no Tab prefix. */
export const contactQuickSearch = defineQuickSearchProvider<Contact>({
  id: 'contacts.search',
  type: 'Contact',
  typePlural: 'Contacts',
  minLength: 2,
  search: ({ query, signal, api }) => {
    if (!api) throw new Error('Contact search needs the API client.');
    return searchContacts(api, query, QUICK_SEARCH_SIZE, signal);
  },
  toItem: (contact) => ({
    id: contact.id,
    title: contact.name,
    subtitle: [contact.roles.map((r) => ROLE_LABELS[r] ?? r).join(', '), contact.emails[0]?.address]
      .filter(Boolean)
      .join(' · '),
    to: contactPageRoute.link({ contactId: contact.id }),
  }),
});
