/**
 * The demo reference data: global lookups (kind → names) and the per-product lookups of the two
 * demo products. Labels equal names unless given as [name, label].
 */
export const GLOBAL_LOOKUPS: Record<string, (string | [string, string])[]> = {
  'reported-method': ['Phone', 'Email', 'Web', 'Agent', 'Mail'],
  timezone: ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'],
  tag: ['Litigation', 'Fraud Review', 'Catastrophe', 'Subrogation Potential', 'VIP'],
  'tag-level': ['claim', 'exposure'],
  'claim-user-role': ['Primary Adjuster', 'Supervisor', 'Field Adjuster'],
  'party-type': ['Person', 'Organization'],
  'party-relation': ['Spouse', 'Child', 'Employer', 'Attorney'],
  'claim-party-role': [
    ['insured', 'Insured'],
    ['claimant', 'Claimant'],
    ['witness', 'Witness'],
    ['vendor', 'Vendor'],
  ],
  'risk-party-role': ['Owner', 'Driver', 'Occupant'],
  'fault-type': ['At Fault', 'Not At Fault', 'Shared'],
  'coverage-type': ['Dwelling', 'Personal Property', 'Liability', 'Collision', 'Comprehensive', 'Bodily Injury'],
  'injury-type': ['Bodily Injury'],
  'injury-nature': ['Sprain', 'Fracture', 'Laceration', 'Whiplash', 'Burn'],
  'injury-body-part': ['Head', 'Neck', 'Back', 'Arm', 'Leg'],
  treatment: ['Emergency Room', 'Physical Therapy', 'Surgery'],
  'claim-type': ['Property', 'Auto'],
  'on-site-service-type': ['Inspection', 'Water Mitigation', 'Towing', 'Board-up'],
  'manual-item': ['Rental Car', 'Temporary Housing'],
  gender: ['Female', 'Male', 'Non-binary', 'Undisclosed'],
  'address-type': ['Home', 'Work', 'Mailing'],
  settlement: ['Minor', 'Moderate', 'Severe'],
  'statutory-code': ['NY-3420', 'CA-2071'],
};

/** Status reasons: [name, from_status, to_status]. */
export const STATUS_REASONS: Record<string, [string, string, string][]> = {
  'claim-status-reason': [
    ['Claim Paid', 'open', 'closed'],
    ['No Coverage', 'open', 'closed'],
    ['Withdrawn', 'open', 'closed'],
    ['New Information', 'closed', 'reopened'],
    ['Supplemental Payment', 'closed', 'reopened'],
    ['Claim Paid', 'reopened', 'closed'],
  ],
  'exposure-status-reason': [
    ['Paid in Full', 'open', 'closed'],
    ['Denied', 'open', 'closed'],
    ['Supplement', 'closed', 'reopened'],
    ['Paid in Full', 'reopened', 'closed'],
  ],
};

export const DEMO_PRODUCTS = [
  {
    name: 'Homeowners',
    label: 'Homeowners',
    policyTypeName: 'Homeowners',
    perils: ['Fire', 'Water Damage', 'Theft', 'Wind/Hail', 'Lightning'],
    lossCategories: ['Property Damage', 'Liability'],
    riskTypeGroup: ['dwellings', 'Dwelling'],
    riskType: ['dwelling', 'Dwelling'],
    coverages: ['Dwelling', 'Personal Property', 'Liability'],
    injury: false,
  },
  {
    name: 'Personal Auto',
    label: 'Personal Auto',
    policyTypeName: 'Personal Auto',
    perils: ['Collision', 'Comprehensive', 'Vandalism', 'Glass Breakage'],
    lossCategories: ['Auto Physical Damage', 'Bodily Injury'],
    riskTypeGroup: ['vehicles', 'Vehicle'],
    riskType: ['vehicle', 'Vehicle'],
    coverages: ['Collision', 'Comprehensive', 'Bodily Injury'],
    injury: true,
  },
] as const;

/** A demo policy's coverages per product: [coverage type, limit, deductible]. */
export const DEMO_POLICY_COVERAGES: Record<string, [string, string, string][]> = {
  Homeowners: [
    ['Dwelling', '300000.00', '1000.00'],
    ['Personal Property', '150000.00', '1000.00'],
    ['Liability', '300000.00', '0.00'],
  ],
  'Personal Auto': [
    ['Collision', '50000.00', '500.00'],
    ['Comprehensive', '50000.00', '250.00'],
    ['Bodily Injury', '100000.00', '0.00'],
  ],
};

export const DEMO_ZIPS = [
  { zip: '10001', city: 'New York', county: 'New York', state: 'NY' },
  { zip: '60601', city: 'Chicago', county: 'Cook', state: 'IL' },
  { zip: '94105', city: 'San Francisco', county: 'San Francisco', state: 'CA' },
  { zip: '73301', city: 'Austin', county: 'Travis', state: 'TX' },
  { zip: '80202', city: 'Denver', county: 'Denver', state: 'CO' },
  { zip: '33101', city: 'Miami', county: 'Miami-Dade', state: 'FL' },
];

export const FIRST_NAMES = [
  'Avery',
  'Jordan',
  'Riley',
  'Taylor',
  'Morgan',
  'Quinn',
  'Harper',
  'Rowan',
  'Emerson',
  'Sawyer',
];
export const LAST_NAMES = [
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
