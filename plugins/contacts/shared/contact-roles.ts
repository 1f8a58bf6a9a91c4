/** Contact roles and their labels; no zod here, so the shell's first load (the g n quick search) stays small. */
/** The roles a contact may hold (docs/contacts.md). */
export const CONTACT_ROLES = [
  'insured',
  'agent',
  'agency',
  'vendor',
  'claimant',
  'witness',
  'lienholder',
  'attorney',
  'adjuster',
  'other',
] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];

export const ROLE_LABELS: Record<string, string> = {
  insured: 'Insured',
  agent: 'Agent',
  agency: 'Agency',
  vendor: 'Vendor',
  claimant: 'Claimant',
  witness: 'Witness',
  lienholder: 'Lienholder',
  attorney: 'Attorney',
  adjuster: 'Adjuster',
  other: 'Other',
};
