import { defineResourceShape } from '@atrium/sdk/shared';
import { z } from 'zod';
import { CONTACT_ROLES } from './contact-roles.js';

export { CONTACT_ROLES, ROLE_LABELS, type ContactRole } from './contact-roles.js';

const address = z.strictObject({
  type: z.string().trim().max(50).optional(),
  line1: z.string().trim().max(200).optional(),
  line2: z.string().trim().max(200).optional(),
  city: z.string().trim().max(100).optional(),
  county: z.string().trim().max(100).optional(),
  state: z.string().trim().max(50).optional(),
  zip: z
    .string()
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, 'Enter a 5-digit ZIP code.')
    .optional(),
});
const phone = z.strictObject({ type: z.string().trim().max(50).optional(), number: z.string().trim().min(1).max(50) });
const email = z.strictObject({
  type: z.string().trim().max(50).optional(),
  address: z.email({ error: 'Enter a valid e-mail address.' }).max(320),
});
const contactId = z
  .string()
  .trim()
  .regex(/^CON-[A-Z0-9-]{1,40}$/, 'Enter a contact id such as CON-1001.');

/** A contact as both halves see it; the server adds the table, the permission and the book scope. */
export const contactShape = defineResourceShape({
  type: 'contact',
  path: '/contacts/contacts/',
  style: 'jsonapi',
  attributes: {
    kind: z.enum(['person', 'organization'], { error: 'Kind must be person or organization.' }).optional(),
    first_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
    name: z.string().trim().min(1, 'This field is required.').max(200),
    roles: z
      .array(z.enum(CONTACT_ROLES, { error: 'Unknown role.' }))
      .max(20)
      .optional(),
    addresses: z.array(address).max(20).optional(),
    phones: z.array(phone).max(20).optional(),
    emails: z.array(email).max(20).optional(),
    website: z
      .union([z.url({ error: 'Enter a web address such as https://example.com.' }).max(300), z.literal('')])
      .optional(),
    dob: z.iso.date({ error: 'Enter a date as YYYY-MM-DD.' }).nullable().optional(),
    agency_id: contactId.nullable().optional(),
    /** Answered masked (`***-**-1234`, with has_ssn and ssn_last4); null clears it. */
    ssn: z.string().trim().max(20).nullable().optional(),
  },
  readOnly: ['created_by', 'created_at', 'updated_at', 'has_ssn', 'ssn_last4'],
  filters: {
    kind: { kind: 'text' },
    agency_id: { kind: 'text' },
    username: { kind: 'text' },
  },
  orderings: ['name', '-name', 'id', '-id'],
  pageSize: 25,
});

export const noteShape = defineResourceShape({
  type: 'contact-note',
  path: '/contacts/notes/',
  style: 'jsonapi',
  attributes: { text: z.string().trim().min(1, 'This field is required.').max(10_000) },
  relationships: { contact: { type: 'contact', required: true } },
  readOnly: ['created_by', 'created_at'],
  filters: { contact_id: { kind: 'text', aliases: ['filter[contact]'] } },
  orderings: ['-id', 'id'],
  pageSize: 100,
});

export const relationShape = defineResourceShape({
  type: 'contact-relation',
  path: '/contacts/relations/',
  style: 'jsonapi',
  attributes: { relation: z.string().trim().min(1, 'This field is required.').max(100) },
  relationships: {
    contact: { type: 'contact', required: true },
    related_contact: { type: 'contact', required: true },
  },
  filters: { contact_id: { kind: 'text', aliases: ['filter[contact]'] } },
  orderings: ['id'],
  pageSize: 100,
});

export const QUOTING_ACTIONS = ['quote', 'submit', 'bind'] as const;

export const quotingPermissionShape = defineResourceShape({
  type: 'quoting-permission',
  path: '/contacts/quoting-permissions/',
  style: 'jsonapi',
  attributes: {
    product: z.string().trim().min(1, 'This field is required.').max(100),
    state: z
      .string()
      .trim()
      .regex(/^[A-Z]{2}$/, 'Enter a two-letter state code.'),
    action: z.enum(QUOTING_ACTIONS, { error: 'Action must be quote, submit or bind.' }),
  },
  relationships: { contact: { type: 'contact', required: true } },
  filters: { contact_id: { kind: 'text', aliases: ['filter[contact]'] } },
  orderings: ['id'],
  pageSize: 250,
});
