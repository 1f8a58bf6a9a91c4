import { sql } from 'drizzle-orm';
import type { SeedContext } from '@atrium/sdk/server';
import { DEMO_PRODUCERS, demoPeople } from '../shared/demo-people.js';
import { contact, contactBook, contactNote, contactRelation, quotingPermission, zipCode } from './tables.js';

/** Claims' gender lookup names, as its demo gave its contacts. */
const GENDERS = ['Female', 'Male', 'Non-binary', 'Undisclosed'];

/**
 * The demo contacts: the demo agency and agents (the ids identity's demo users and the claims demo's
 * policies name), the people the claims demo names as insureds and claimants — with the books of
 * the producers whose policies and claims they are on — and a vendor. The names follow the claims
 * demo (plugins/claims/server/seed/demo-claims.ts: person(i), policies, claims); the contacts API
 * test checks that every demo claim party has its contact.
 */
export { DEMO_PRODUCERS };

const ZIPS = [
  { zip: '10001', city: 'New York', county: 'New York', state: 'NY' },
  { zip: '60601', city: 'Chicago', county: 'Cook', state: 'IL' },
  { zip: '94105', city: 'San Francisco', county: 'San Francisco', state: 'CA' },
  { zip: '73301', city: 'Austin', county: 'Travis', state: 'TX' },
  { zip: '80202', city: 'Denver', county: 'Denver', state: 'CO' },
  { zip: '33101', city: 'Miami', county: 'Miami-Dade', state: 'FL' },
];

export async function seedContacts({ tx }: SeedContext): Promise<void> {
  const org = (id: string, name: string, username: string | null, email: string, city: (typeof ZIPS)[number]) => ({
    id,
    kind: 'organization',
    name,
    roles: ['agency'],
    username,
    emails: [{ type: 'Work', address: email }],
    phones: [{ type: 'Work', number: '+1 555 0300' }],
    website: `https://${name.toLowerCase().replace(/\s+/g, '-')}.example`,
    addresses: [{ type: 'Office', line1: '1 Harbour Sq', city: city.city, state: city.state, zip: city.zip }],
  });
  const agent = (id: string, first: string, last: string, agencyId: string, username: string | null) => ({
    id,
    kind: 'person',
    firstName: first,
    lastName: last,
    name: `${first} ${last}`,
    roles: ['agent'],
    agencyId,
    username,
    emails: [{ type: 'Work', address: username ?? `${first.toLowerCase()}@agency.test` }],
    phones: [{ type: 'Mobile', number: '+1 555 0310' }],
  });
  const producers = [
    org('CON-AGENCY-HARBOUR', 'Harbour Agency', 'agency@agency.test', 'agency@agency.test', ZIPS[0]!),
    org('CON-AGENCY-NORTHGATE', 'Northgate Agency', null, 'office@northgate.test', ZIPS[2]!),
    agent('CON-AGENT-ALEX', 'Alex', 'Agent', 'CON-AGENCY-HARBOUR', 'agent@agency.test'),
    agent('CON-AGENT-BLAKE', 'Blake', 'Broker', 'CON-AGENCY-HARBOUR', null),
    agent('CON-AGENT-NOOR', 'Noor', 'Producer', 'CON-AGENCY-NORTHGATE', null),
  ];

  // The people of the claims and policies demos: one contact per name, in the books of every
  // producer whose policy (insured) or claim (claimant) names them (shared/demo-people.ts).
  const people = demoPeople();
  const personRows = people.map((entry) => {
    const [firstName, lastName] = entry.name.split(' ') as [string, string];
    const zip = ZIPS[entry.index % ZIPS.length]!;
    return {
      id: `CON-${entry.number}`,
      number: entry.number,
      kind: 'person',
      firstName,
      lastName,
      name: entry.name,
      roles: entry.roles,
      gender: GENDERS[entry.index % GENDERS.length]!,
      dob: `19${60 + (entry.index % 30)}-0${(entry.index % 9) + 1}-1${entry.index % 9}`,
      emails: [{ type: 'Home', address: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.test` }],
      phones: [{ type: 'Mobile', number: `+1 555 01${String(10 + (entry.index % 90))}` }],
      addresses: [
        { type: 'Home', line1: `${100 + entry.index} Main St`, city: zip.city, state: zip.state, zip: zip.zip },
      ],
    };
  });
  const vendorNumber = 1001 + personRows.length;
  const vendor = {
    id: `CON-${vendorNumber}`,
    number: vendorNumber,
    kind: 'organization',
    name: 'Rapid Restoration LLC',
    roles: ['vendor'],
    emails: [{ type: 'Work', address: 'dispatch@rapid-restoration.test' }],
    phones: [{ type: 'Work', number: '+1 555 0400' }],
    website: 'https://rapid-restoration.example',
  };
  // The producers' named ids take the numbers after the vendor's; new contacts follow them.
  const numbered = producers.map((p, n) => ({ ...p, number: vendorNumber + 1 + n }));
  await tx.insert(contact).values([...numbered, ...personRows, vendor]);
  await tx.execute(sql`select setval('contacts.contact_number', ${vendorNumber + 1 + producers.length}, false)`);
  // Address by ZIP on the claims contact form (the claims demo's ZIPs).
  await tx.insert(zipCode).values(ZIPS);

  await tx.insert(contactBook).values([
    // Agents are in their own and their agency's book, agencies in their own.
    ...DEMO_PRODUCERS.flatMap((p) => [
      { contactId: p.agent, agentContactId: p.agent, agencyContactId: p.agency },
      { contactId: p.agency, agentContactId: p.agent, agencyContactId: p.agency },
    ]),
    { contactId: 'CON-AGENCY-HARBOUR', agentContactId: null, agencyContactId: 'CON-AGENCY-HARBOUR' },
    { contactId: 'CON-AGENCY-NORTHGATE', agentContactId: null, agencyContactId: 'CON-AGENCY-NORTHGATE' },
    ...people.flatMap((entry, n) =>
      entry.books.map((b) => ({
        contactId: personRows[n]!.id,
        agentContactId: DEMO_PRODUCERS[b]!.agent,
        agencyContactId: DEMO_PRODUCERS[b]!.agency,
      })),
    ),
  ]);
  await tx
    .insert(contactRelation)
    .values([
      ...DEMO_PRODUCERS.map((p) => ({ contactId: p.agent, relatedContactId: p.agency, relation: 'Agent of' })),
      { contactId: personRows[0]!.id, relatedContactId: personRows[1]!.id, relation: 'Spouse' },
    ]);
  await tx.insert(contactNote).values([
    { contactId: 'CON-AGENCY-HARBOUR', text: 'Appointed in NY, IL and CA since 2019.', createdBy: 'admin@atrium.test' },
    { contactId: personRows[0]!.id, text: 'Prefers to be called in the afternoon.', createdBy: 'adjuster@atrium.test' },
  ]);
  const grant = (contactId: string, products: string[], states: string[], actions: string[]) =>
    products.flatMap((product) =>
      states.flatMap((state) => actions.map((action) => ({ contactId, product, state, action }))),
    );
  await tx.insert(quotingPermission).values([
    // The demo quotes are in TX: the demo agent and agency quote, submit and bind there too.
    ...grant('CON-AGENT-ALEX', ['Homeowners', 'Personal Auto'], ['NY', 'IL', 'TX'], ['quote', 'submit', 'bind']),
    ...grant('CON-AGENCY-HARBOUR', ['Homeowners', 'Personal Auto'], ['NY', 'IL', 'TX'], ['quote', 'submit', 'bind']),
    ...grant('CON-AGENT-BLAKE', ['Homeowners'], ['NY'], ['quote', 'submit']),
    ...grant('CON-AGENT-NOOR', ['Homeowners', 'Personal Auto'], ['CA'], ['quote']),
  ]);
}
