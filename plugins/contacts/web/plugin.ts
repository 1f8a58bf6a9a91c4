import IconAddressBook from '@tabler/icons-react/icons/IconAddressBook';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { contactQuickSearch } from './contact-quick-search.js';
import { contactPageRoute, contactsPageRoute } from './routes.js';

/**
 * The Contacts module's web half: the contact search (/contacts), a contact's page, the `g n`
 * Contact (Name) quick search and a palette command. `moduleKey` ties all of them to `ui:contacts`.
 */
export default definePlugin({
  id: 'contacts',
  title: 'Contacts',
  moduleKey: 'contacts',
  routes: [
    {
      name: contactsPageRoute.name,
      path: contactsPageRoute.path,
      meta: { layout: 'default', title: 'Contacts' },
      loader: () => import('./pages/contacts-page.js'),
    },
    {
      name: contactPageRoute.name,
      path: contactPageRoute.path,
      meta: { layout: 'default', title: 'Contact' },
      loader: () => import('./pages/contact-page.js'),
    },
  ],
  nav: [
    {
      id: 'contacts.nav',
      title: 'Contacts',
      to: contactsPageRoute,
      area: 'main',
      order: 150,
      icon: IconAddressBook,
      command: 'contacts.open',
    },
    // Agents and agencies: the contacts of their own book.
    { id: 'contacts.agent', title: 'Contacts', to: contactsPageRoute, area: 'agent', order: 4, icon: IconAddressBook },
  ],
  commands: [
    defineCommand({
      id: 'contacts.open',
      title: 'Open Contacts',
      group: 'Contacts',
      keywords: ['contacts', 'people', 'organizations', 'insureds', 'agents'],
      run: (_args, { services }) => services.navigate(contactsPageRoute.link({})),
    }),
  ],
  quickSearch: [contactQuickSearch],
});
