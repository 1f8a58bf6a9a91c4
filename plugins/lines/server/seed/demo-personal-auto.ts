import type { DefinitionSpec, RiskSpec } from './definition-spec.js';

/**
 * Demo Personal Auto product: a `policy` risk with `vehicle` and `driver` children. Each vehicle
 * prices its coverages (liability by limit, physical damage by symbol, age and deductible, roadside
 * as a fully earned fee); the policy sums the vehicles and applies the average driver factor and
 * its discounts.
 */
export const personalAutoDefinition: DefinitionSpec = {
  riskTypes: [
    {
      name: 'policy',
      label: 'Policy',
      fields: [
        { name: 'policy_year', label: 'Policy year', type: 'number', default: '2026', format: 'year' },
        { name: 'multi_policy', label: 'Multi-policy discount', type: 'boolean', default: 'false' },
        { name: 'paid_in_full', label: 'Paid in full', type: 'boolean', default: 'false' },
      ],
      calculations: [
        {
          name: 'vehicle_total',
          label: 'Vehicle premiums',
          formula: "sum(children('vehicle'), 'premium')",
        },
        {
          name: 'driver_factor',
          label: 'Average driver factor',
          formula: "sum(children('driver'), 'driver_factor') / max(1, count(children('driver')))",
          round: { places: 4, mode: 'half-even' },
        },
        {
          name: 'discount_factor',
          label: 'Discounts',
          formula: 'if(multi_policy, 0.9, 1) * if(paid_in_full, 0.95, 1)',
        },
        {
          name: 'premium',
          label: 'Premium',
          formula: 'max(300, vehicle_total * driver_factor * discount_factor)',
          round: { places: 2, mode: 'half-up' },
        },
      ],
    },
    {
      name: 'vehicle',
      label: 'Vehicle',
      parent: 'policy',
      sequence: 1,
      fields: [
        { name: 'vin', label: 'VIN', type: 'string', format: 'vin' },
        { name: 'model_year', label: 'Model year', type: 'number', required: true, format: 'year' },
        { name: 'symbol', label: 'Rating symbol', type: 'number', required: true },
        {
          name: 'usage',
          label: 'Usage',
          type: 'enum',
          options: ['pleasure', 'commute', 'business'],
          default: 'commute',
          defaultLabel: 'Commute',
        },
        { name: 'garaging_zip', label: 'Garaging ZIP', type: 'string', required: true, format: 'zip' },
        { name: 'vehicle_age', label: 'Vehicle age', type: 'computed', formula: 'max(0, policy_year - model_year)' },
      ],
      items: [
        {
          name: 'bodily_injury',
          label: 'Bodily injury liability',
          presence: 'required',
          limits: [
            {
              kind: 'limit',
              label: 'Per person',
              default: '100000',
              options: ['30000', '50000', '100000', '250000'],
            },
          ],
        },
        {
          name: 'property_damage',
          label: 'Property damage liability',
          presence: 'required',
          limits: [{ kind: 'limit', label: 'Per accident', default: '50000', options: ['25000', '50000', '100000'] }],
        },
        {
          name: 'collision',
          label: 'Collision',
          presence: 'default',
          limits: [{ kind: 'deductible', label: 'Deductible', default: '500', options: ['250', '500', '1000'] }],
        },
        {
          name: 'comprehensive',
          label: 'Comprehensive',
          presence: 'default',
          limits: [{ kind: 'deductible', label: 'Deductible', default: '500', options: ['100', '250', '500', '1000'] }],
        },
        {
          name: 'roadside',
          label: 'Roadside assistance',
          type: 'fee',
          fullyEarned: true,
          premium: 'roadside_premium',
        },
      ],
      calculations: [
        { name: 'territory', label: 'Territory factor', formula: 'auto_territory(garaging_zip)' },
        { name: 'usage_relativity', label: 'Usage factor', formula: 'usage_factor(usage)' },
        {
          name: 'physical_damage_factor',
          label: 'Symbol and age factor',
          formula: 'vehicle_symbol(symbol) * vehicle_age_factor(vehicle_age)',
          round: { places: 4, mode: 'half-even' },
        },
        {
          name: 'bi_premium',
          label: 'Bodily injury premium',
          item: 'bodily_injury',
          formula: "bi_rates(limit('bodily_injury')) * territory * usage_relativity",
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'pd_premium',
          label: 'Property damage premium',
          item: 'property_damage',
          formula: "pd_rates(limit('property_damage')) * territory",
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'collision_premium',
          label: 'Collision premium',
          item: 'collision',
          formula: "310 * physical_damage_factor * collision_deductible(deductible('collision'))",
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'comprehensive_premium',
          label: 'Comprehensive premium',
          item: 'comprehensive',
          formula: "140 * physical_damage_factor * comprehensive_deductible(deductible('comprehensive'))",
          round: { places: 2, mode: 'half-up' },
        },
        { name: 'roadside_premium', label: 'Roadside fee', item: 'roadside', formula: '24' },
        {
          name: 'premium',
          label: 'Vehicle premium',
          formula: 'bi_premium + pd_premium + collision_premium + comprehensive_premium + roadside_premium',
        },
      ],
    },
    {
      name: 'driver',
      label: 'Driver',
      parent: 'policy',
      sequence: 2,
      fields: [
        { name: 'first_name', label: 'First name', type: 'string' },
        { name: 'last_name', label: 'Last name', type: 'string' },
        { name: 'date_of_birth', label: 'Date of birth', type: 'date', format: 'date' },
        { name: 'age', label: 'Age', type: 'number', required: true },
        { name: 'violations', label: 'Violations (3 years)', type: 'number', default: '0' },
        { name: 'at_fault_accidents', label: 'At-fault accidents (3 years)', type: 'number', default: '0' },
      ],
      calculations: [
        {
          name: 'driver_factor',
          label: 'Driver factor',
          formula: 'driver_age_factor(age) * violation_factor(violations) * if(at_fault_accidents > 0, 1.3, 1)',
          round: { places: 4, mode: 'half-even' },
        },
      ],
    },
  ],
  rateTables: [
    {
      name: 'auto_territory',
      label: 'Territory factor',
      riskType: 'vehicle',
      keys: [{ name: 'garaging_zip', label: 'Garaging ZIP', match: 'exact' }],
      default: '1',
      rows: [
        [{ garaging_zip: '78701' }, '1.1'],
        [{ garaging_zip: '77002' }, '1.25'],
        [{ garaging_zip: '78746' }, '0.95'],
      ],
    },
    {
      name: 'usage_factor',
      label: 'Usage factor',
      riskType: 'vehicle',
      keys: [{ name: 'usage', label: 'Usage', match: 'exact' }],
      rows: [
        [{ usage: 'pleasure' }, '0.9'],
        [{ usage: 'commute' }, '1.0'],
        [{ usage: 'business' }, '1.2'],
      ],
    },
    {
      name: 'vehicle_symbol',
      label: 'Symbol factor',
      riskType: 'vehicle',
      keys: [{ name: 'symbol', label: 'Symbol', match: 'range' }],
      rows: [
        [{ symbol: { from: 1, to: 10 } }, '0.9'],
        [{ symbol: { from: 10, to: 20 } }, '1.0'],
        [{ symbol: { from: 20, to: null } }, '1.3'],
      ],
    },
    {
      name: 'vehicle_age_factor',
      label: 'Vehicle age factor',
      riskType: 'vehicle',
      keys: [{ name: 'vehicle_age', label: 'Vehicle age', match: 'range' }],
      rows: [
        [{ vehicle_age: { from: 0, to: 3 } }, '1.15'],
        [{ vehicle_age: { from: 3, to: 8 } }, '1.0'],
        [{ vehicle_age: { from: 8, to: null } }, '0.8'],
      ],
    },
    {
      name: 'bi_rates',
      label: 'Bodily injury rates',
      riskType: 'vehicle',
      keys: [{ name: 'limit', label: 'Limit', match: 'exact' }],
      rows: [
        [{ limit: 30000 }, '210'],
        [{ limit: 50000 }, '245'],
        [{ limit: 100000 }, '290'],
        [{ limit: 250000 }, '360'],
      ],
    },
    {
      name: 'pd_rates',
      label: 'Property damage rates',
      riskType: 'vehicle',
      keys: [{ name: 'limit', label: 'Limit', match: 'exact' }],
      rows: [
        [{ limit: 25000 }, '150'],
        [{ limit: 50000 }, '165'],
        [{ limit: 100000 }, '185'],
      ],
    },
    {
      name: 'collision_deductible',
      label: 'Collision deductible factor',
      riskType: 'vehicle',
      keys: [{ name: 'deductible', label: 'Deductible', match: 'exact' }],
      rows: [
        [{ deductible: 250 }, '1.15'],
        [{ deductible: 500 }, '1.0'],
        [{ deductible: 1000 }, '0.85'],
      ],
    },
    {
      name: 'comprehensive_deductible',
      label: 'Comprehensive deductible factor',
      riskType: 'vehicle',
      keys: [{ name: 'deductible', label: 'Deductible', match: 'exact' }],
      rows: [
        [{ deductible: 100 }, '1.2'],
        [{ deductible: 250 }, '1.05'],
        [{ deductible: 500 }, '1.0'],
        [{ deductible: 1000 }, '0.85'],
      ],
    },
    {
      name: 'driver_age_factor',
      label: 'Driver age factor',
      riskType: 'driver',
      keys: [{ name: 'age', label: 'Age', match: 'range' }],
      rows: [
        [{ age: { from: 16, to: 21 } }, '1.9'],
        [{ age: { from: 21, to: 25 } }, '1.4'],
        [{ age: { from: 25, to: 65 } }, '1.0'],
        [{ age: { from: 65, to: null } }, '1.1'],
      ],
    },
    {
      name: 'violation_factor',
      label: 'Violation factor',
      riskType: 'driver',
      keys: [{ name: 'violations', label: 'Violations', match: 'range' }],
      rows: [
        [{ violations: { from: 0, to: 1 } }, '1.0'],
        [{ violations: { from: 1, to: 2 } }, '1.15'],
        [{ violations: { from: 2, to: null } }, '1.4'],
      ],
    },
  ],
  sequences: [{ name: 'policy_number', label: 'Policy number', prefix: 'PA-', padding: 7, start: 1000 }],
};

const fullCoverage = (collisionDeductible: string) => [
  { name: 'bodily_injury', limit: '100000' },
  { name: 'property_damage', limit: '50000' },
  { name: 'collision', deductible: collisionDeductible },
  { name: 'comprehensive', deductible: '500' },
  { name: 'roadside' },
];

const familyPolicy: RiskSpec = {
  type: 'policy',
  answers: { multi_policy: true, paid_in_full: false },
  children: [
    {
      type: 'vehicle',
      answers: { vin: '1HGCV1F34LA000001', model_year: 2021, symbol: 14, usage: 'commute', garaging_zip: '78701' },
      items: fullCoverage('500'),
    },
    {
      type: 'vehicle',
      answers: { vin: '5YJ3E1EA7KF000002', model_year: 2016, symbol: 22, usage: 'pleasure', garaging_zip: '78701' },
      items: [
        { name: 'bodily_injury', limit: '100000' },
        { name: 'property_damage', limit: '50000' },
      ],
    },
    { type: 'driver', answers: { first_name: 'Maria', last_name: 'Lopez', age: 42, violations: 0 } },
    { type: 'driver', answers: { first_name: 'Diego', last_name: 'Lopez', age: 19, violations: 1 } },
  ],
};

const singleDriver: RiskSpec = {
  type: 'policy',
  answers: { paid_in_full: true },
  children: [
    {
      type: 'vehicle',
      answers: { model_year: 2025, symbol: 8, usage: 'commute', garaging_zip: '77002' },
      items: fullCoverage('1000'),
    },
    { type: 'driver', answers: { first_name: 'Sam', last_name: 'Nguyen', age: 30, at_fault_accidents: 1 } },
  ],
};

const YEAR = { termStart: '2026-01-01', termEnd: '2027-01-01' };

/** Known-answer cases (see demo-homeowners.ts). */
export const personalAutoScenarios: DefinitionSpec['scenarios'] = [
  {
    name: 'Family with two vehicles and a teen driver',
    transactionType: 'new_business',
    effectiveDate: '2026-01-01',
    ...YEAR,
    expectedPremium: '2068.32',
    risk: familyPolicy,
  },
  {
    name: 'Single driver with an at-fault accident',
    transactionType: 'new_business',
    effectiveDate: '2026-01-01',
    ...YEAR,
    expectedPremium: '1247.81',
    risk: singleDriver,
  },
];
