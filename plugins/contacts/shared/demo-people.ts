/**
 * The people of the demo (claims' and policies' demo data name them), numbered as the contacts demo
 * seeds them: `CON-1001` … in order of first appearance. The claims demo links its parties to these
 * contacts by number (a party's `contact_id`), the policies demo names its insureds `CON-1001 + i`;
 * the contacts API test checks both against the store.
 */
export const DEMO_PRODUCERS = [
  { agent: 'CON-AGENT-ALEX', agency: 'CON-AGENCY-HARBOUR' },
  { agent: 'CON-AGENT-BLAKE', agency: 'CON-AGENCY-HARBOUR' },
  { agent: 'CON-AGENT-NOOR', agency: 'CON-AGENCY-NORTHGATE' },
] as const;

const FIRST_NAMES = ['Avery', 'Jordan', 'Riley', 'Taylor', 'Morgan', 'Quinn', 'Harper', 'Rowan', 'Emerson', 'Sawyer'];
const LAST_NAMES = [
  'Nguyen',
  'Garcia',
  'Okafor',
  'Schmidt',
  'Rossi',
  'Kowalski',
  'Haddad',
  'Silva',
  'Lindqvist',
  'Patel',
];

/** The claims demo's person(i) (plugins/claims/server/seed/demo-claims.ts). */
export const demoPerson = (i: number) =>
  `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[(i * 3 + 1) % LAST_NAMES.length]}`;

/** Claims demo: 20 policies (insured person(i), producer i % 3); claims 10–59 have claimant person(i + 5) on policy i % 20. */
const POLICIES = 20;
const SUBMITTED_CLAIMS = Array.from({ length: 50 }, (_, n) => n + 10);

export interface DemoPersonEntry {
  number: number;
  name: string;
  /** The first i of person(i) that names them. */
  index: number;
  roles: string[];
  /** Indexes into DEMO_PRODUCERS whose books they are in. */
  books: number[];
}

/** One entry per demo person, CON-1001 first. */
export function demoPeople(): DemoPersonEntry[] {
  const people = new Map<string, { roles: Set<string>; books: Set<number>; index: number }>();
  const note = (name: string, index: number, role: string, producer: number) => {
    const entry = people.get(name) ?? { roles: new Set<string>(), books: new Set<number>(), index };
    entry.roles.add(role);
    entry.books.add(producer);
    people.set(name, entry);
  };
  for (let i = 0; i < POLICIES; i++) note(demoPerson(i), i, 'insured', i % DEMO_PRODUCERS.length);
  for (const i of SUBMITTED_CLAIMS) {
    note(demoPerson(i + 5), i + 5, 'claimant', (i % POLICIES) % DEMO_PRODUCERS.length);
  }
  return [...people.entries()].map(([name, entry], n) => ({
    number: 1001 + n,
    name,
    index: entry.index,
    roles: [...entry.roles].sort(),
    books: [...entry.books].sort(),
  }));
}

/** The store number of the demo person called `name` (undefined for anyone else). */
export function demoContactNumber(name: string): number | undefined {
  return demoPeople().find((p) => p.name === name)?.number;
}
