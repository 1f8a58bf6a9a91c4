import { createRouteRef } from '@atrium/sdk';

/** Spec route name `contacts`: the contact search. */
export const contactsPageRoute = createRouteRef({ name: 'contacts', path: '/contacts' });
/** One contact (the classic `/{product}/contacts/information?id={id}` lands here). */
export const contactPageRoute = createRouteRef({ name: 'contacts:contact', path: '/contacts/:contactId' });
