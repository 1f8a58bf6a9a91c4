import type { DefinitionSpec, RiskSpec } from './definition-spec.js';

/**
 * Demo Homeowners (HO-3 style) product, the same content as @atrium/rating's homeowners fixture
 * (packages/rating/src/fixtures/homeowners.ts): a `home` risk with the dwelling and personal
 * liability items, fully earned scheduled jewelry, and `scheduled_article` child risks.
 */
export const homeownersDefinition: DefinitionSpec = {
  riskTypes: [
    {
      name: 'home',
      label: 'Home',
      fields: [
        { name: 'zip', label: 'ZIP code', type: 'string', required: true, format: 'zip' },
        {
          name: 'construction',
          label: 'Construction',
          type: 'enum',
          options: ['frame', 'masonry', 'fire_resistive'],
          default: 'frame',
          defaultLabel: 'Frame',
        },
        { name: 'protection_class', label: 'Protection class', type: 'number', required: true },
        { name: 'year_built', label: 'Year built', type: 'number', required: true, format: 'year' },
        { name: 'roof_year', label: 'Roof year', type: 'number', required: true, format: 'year' },
        {
          name: 'policy_year',
          label: 'Policy year',
          type: 'number',
          default: '2026',
          source: 'policy.term_effective_date',
          format: 'year',
        },
        { name: 'roof_age', label: 'Roof age', type: 'computed', formula: 'max(0, policy_year - roof_year)' },
        { name: 'home_age', label: 'Home age', type: 'computed', formula: 'max(0, policy_year - year_built)' },
      ],
      items: [
        {
          name: 'dwelling',
          label: 'Dwelling (Coverage A)',
          presence: 'required',
          limits: [
            { kind: 'limit', label: 'Coverage A limit', default: '250000', min: '50000', max: '2000000' },
            {
              kind: 'deductible',
              label: 'All perils deductible',
              default: '1000',
              options: ['500', '1000', '2500', '5000'],
            },
          ],
        },
        {
          name: 'personal_liability',
          label: 'Personal liability (Coverage E)',
          presence: 'default',
          limits: [
            { kind: 'limit', label: 'Each occurrence', default: '300000', options: ['100000', '300000', '500000'] },
          ],
        },
        {
          name: 'scheduled_jewelry',
          label: 'Scheduled jewelry',
          type: 'endorsement',
          fullyEarned: true,
          premium: 'jewelry_premium',
        },
      ],
      calculations: [
        { name: 'base_rate', label: 'Base rate', formula: '1150' },
        { name: 'coverage_a', label: 'Coverage A', formula: "limit('dwelling')" },
        {
          name: 'coverage_a_factor',
          label: 'Coverage A relativity',
          formula: 'coverage_a_relativity(coverage_a)',
          round: { places: 4, mode: 'half-even' },
        },
        {
          name: 'key_factor',
          label: 'Key factor',
          formula:
            'territory_factor(zip)\n  * lookup(construction_protection, construction, protection_class)\n  * roof_age_factor(roof_age)',
          round: { places: 4, mode: 'half-even' },
        },
        { name: 'age_surcharge', label: 'Age surcharge', formula: 'if(home_age >= 40, 1.05, 1)' },
        {
          name: 'dwelling_premium',
          label: 'Dwelling premium',
          formula: 'base_rate * coverage_a_factor * key_factor * age_surcharge',
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'deductible_credit',
          label: 'Deductible credit',
          formula: "dwelling_premium * table('deductible_credit', deductible('dwelling'))",
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'liability_premium',
          label: 'Liability premium',
          formula: "liability_rates(limit('personal_liability'))",
        },
        {
          name: 'jewelry_premium',
          label: 'Jewelry premium',
          item: 'scheduled_jewelry',
          formula: "max(25, sum(children('scheduled_article'), 'premium'))",
          round: { places: 2, mode: 'half-up' },
        },
        {
          name: 'premium',
          label: 'Premium',
          formula: 'max(250, dwelling_premium - deductible_credit + liability_premium + jewelry_premium)',
        },
      ],
    },
    {
      name: 'scheduled_article',
      label: 'Scheduled article',
      parent: 'home',
      fields: [
        { name: 'category', label: 'Category', type: 'enum', options: ['jewelry', 'watch'], required: true },
        { name: 'appraised_value', label: 'Appraised value', type: 'number', required: true, format: 'currency' },
        { name: 'in_vault', label: 'Kept in a vault', type: 'boolean', default: 'false' },
      ],
      calculations: [
        { name: 'rate_per_100', label: 'Rate per 100', formula: 'article_rates(category) * if(in_vault, 0.5, 1)' },
        {
          name: 'premium',
          label: 'Premium',
          formula: 'appraised_value / 100 * rate_per_100',
          round: { places: 2, mode: 'half-up' },
        },
      ],
    },
  ],
  rateTables: [
    {
      name: 'territory_factor',
      label: 'Territory factor',
      riskType: 'home',
      keys: [{ name: 'zip', label: 'ZIP', match: 'exact' }],
      default: '1',
      rows: [
        [{ zip: '78701' }, '1.12'],
        [{ zip: '78702' }, '1.18'],
        [{ zip: '78746' }, '0.95'],
        [{ zip: '77002' }, '1.35'],
      ],
    },
    {
      name: 'construction_protection',
      label: 'Construction and protection class',
      riskType: 'home',
      keys: [
        { name: 'construction', label: 'Construction', match: 'exact' },
        { name: 'protection_class', label: 'Protection class', match: 'range' },
      ],
      rows: [
        [{ construction: 'frame', protection_class: { from: 1, to: 5 } }, '1.0'],
        [{ construction: 'frame', protection_class: { from: 5, to: 9 } }, '1.1'],
        [{ construction: 'frame', protection_class: { from: 9, to: 11 } }, '1.45'],
        [{ construction: 'masonry', protection_class: { from: 1, to: 5 } }, '0.9'],
        [{ construction: 'masonry', protection_class: { from: 5, to: 9 } }, '0.98'],
        [{ construction: 'masonry', protection_class: { from: 9, to: 11 } }, '1.3'],
        [{ construction: 'fire_resistive', protection_class: { from: 1, to: 11 } }, '0.85'],
      ],
    },
    {
      name: 'roof_age_factor',
      label: 'Roof age factor',
      riskType: 'home',
      keys: [{ name: 'roof_age', label: 'Roof age', match: 'range' }],
      rows: [
        [{ roof_age: { from: 0, to: 10 } }, '1.0'],
        [{ roof_age: { from: 10, to: 20 } }, '1.1'],
        [{ roof_age: { from: 20, to: null } }, '1.25'],
      ],
    },
    {
      name: 'coverage_a_relativity',
      label: 'Coverage A relativity',
      riskType: 'home',
      keys: [{ name: 'coverage_a', label: 'Coverage A', match: 'exact' }],
      interpolate: 'coverage_a',
      rows: [
        [{ coverage_a: 100000 }, '0.8'],
        [{ coverage_a: 200000 }, '1.0'],
        [{ coverage_a: 300000 }, '1.15'],
        [{ coverage_a: 500000 }, '1.4'],
        [{ coverage_a: 1000000 }, '2.1'],
      ],
    },
    {
      name: 'deductible_credit',
      label: 'Deductible credit',
      riskType: 'home',
      keys: [{ name: 'deductible', label: 'Deductible', match: 'exact' }],
      rows: [
        [{ deductible: 500 }, '0'],
        [{ deductible: 1000 }, '0.05'],
        [{ deductible: 2500 }, '0.12'],
        [{ deductible: 5000 }, '0.18'],
      ],
    },
    {
      name: 'liability_rates',
      label: 'Liability rates',
      riskType: 'home',
      keys: [{ name: 'limit', label: 'Limit', match: 'exact' }],
      rows: [
        [{ limit: 100000 }, '18'],
        [{ limit: 300000 }, '30'],
        [{ limit: 500000 }, '42'],
      ],
    },
    {
      name: 'article_rates',
      label: 'Scheduled article rates',
      riskType: 'scheduled_article',
      keys: [{ name: 'category', label: 'Category', match: 'exact' }],
      rows: [
        [{ category: 'jewelry' }, '1.5'],
        [{ category: 'watch' }, '1.2'],
      ],
    },
  ],
  sequences: [{ name: 'policy_number', label: 'Policy number', prefix: 'HO-', padding: 7, start: 1000 }],
};

/** The fixture's scenario: a frame home in 78701 with two scheduled pieces. */
const austinHome: RiskSpec = {
  type: 'home',
  answers: { zip: '78701', construction: 'frame', protection_class: 6, year_built: 1998, roof_year: 2014 },
  items: [
    { name: 'dwelling', limit: '250000', deductible: '1000' },
    { name: 'personal_liability', limit: '300000' },
    { name: 'scheduled_jewelry' },
  ],
  children: [
    { type: 'scheduled_article', answers: { category: 'jewelry', appraised_value: 8000 } },
    { type: 'scheduled_article', answers: { category: 'watch', appraised_value: 4000 } },
  ],
};

const houstonHome: RiskSpec = {
  type: 'home',
  answers: { zip: '77002', construction: 'masonry', protection_class: 3, year_built: 1975, roof_year: 2020 },
  items: [
    { name: 'dwelling', limit: '400000', deductible: '2500' },
    { name: 'personal_liability', limit: '500000' },
  ],
};

const YEAR = { termStart: '2026-01-01', termEnd: '2027-01-01' };

/**
 * Known-answer cases (expected premiums worked out by the engine; test/catalog/seed.api.test.ts rates
 * them from the database and asserts they still hold).
 */
export const homeownersScenarios: DefinitionSpec['scenarios'] = [
  {
    name: 'Frame home in Austin with scheduled jewelry',
    transactionType: 'new_business',
    effectiveDate: '2026-01-01',
    ...YEAR,
    expectedPremium: '1789.60',
    risk: austinHome,
  },
  {
    name: 'Masonry home in Houston',
    transactionType: 'new_business',
    effectiveDate: '2026-01-01',
    ...YEAR,
    expectedPremium: '1688.10',
    risk: houstonHome,
  },
  {
    name: 'Austin home cancelled on April 1',
    transactionType: 'cancellation',
    effectiveDate: '2026-04-01',
    ...YEAR,
    expectedPremium: '567.85',
    risk: austinHome,
  },
];
