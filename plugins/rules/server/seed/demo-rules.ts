import type { ComponentType } from '../tables.js';

/** Demo rules projects, one per demo line (docs/rules.md, "Demo projects"). */
export interface DemoComponent {
  name: string;
  label: string;
  folder: string;
  type: ComponentType;
  body: string;
  tags?: { category: string; value: string; priority: number }[];
}

export interface DemoProject {
  name: string;
  label: string;
  product: string;
  description: string;
  components: DemoComponent[];
}

const test = (value: object) => JSON.stringify(value, null, 2) + '\n';

export const homeownersRules: DemoProject = {
  name: 'homeowners_rules',
  label: 'Homeowners rules',
  product: 'homeowners',
  description:
    'UI controls, validation and underwriting for Homeowners HO-3 quotes, and the forms its declarations carry.',
  components: [
    {
      name: 'minimum_year',
      label: 'Year not before a minimum',
      folder: 'templates',
      type: 'template',
      body: `template minimum_year "Year not before a minimum"
  parameter field: field "Year field" input-type select documentation 'The year field to check'
  parameter earliest: number "Earliest year" input-type number default 1850 documentation 'The first year accepted'
  category validation
  applies to home
when
  it is true that {{field}} < {{earliest}}
then
  mark {{field}} invalid message 'This year is too early.'
end
`,
    },
    {
      name: 'year_built_minimum',
      label: 'Year built from 1850',
      folder: 'validation',
      type: 'rule',
      body: `rule year_built_minimum "Year built from 1850" from template minimum_year
  with field = year_built, earliest = 1850
end
`,
    },
    {
      name: 'roof_not_before_house',
      label: 'Roof not older than the house',
      folder: 'validation',
      type: 'rule',
      body: `rule roof_not_before_house "Roof not older than the house"
  category validation
  applies to home
when
  it is true that roof_year < year_built
then
  mark roof_year invalid message 'The roof cannot be older than the house.'
end
`,
    },
    {
      name: 'poor_protection_construction',
      label: 'No frame homes in protection class 9–10',
      folder: 'ui',
      type: 'rule',
      body: `rule poor_protection_construction "No frame homes in protection class 9-10"
  category ui-control
  applies to home
  priority 10
when
  it is true that protection_class >= 9
then
  disallow construction options 'frame'
end
`,
    },
    {
      name: 'vault_for_valuables',
      label: 'Vault question for valuable articles',
      folder: 'ui',
      type: 'rule',
      body: `rule vault_for_valuables "Vault question for valuable articles"
  category ui-control
  applies to scheduled_article
when
  it is true that appraised_value > 25000
then
  show in_vault
  make in_vault mandatory
otherwise
  hide in_vault
end
`,
    },
    {
      name: 'old_roof_referral',
      label: 'Old roofs are referred',
      folder: 'underwriting',
      type: 'rule',
      body: `rule old_roof_referral "Old roofs are referred"
  category underwriting
  applies to home
when
  it is true that policy_year - roof_year > 25
then
  raise issue 'HO-ROOF' severity refer blocking bind message 'Roofs older than 25 years need underwriter review.'
end
`,
      tags: [{ category: 'ComponentUsage', value: 'underwriting', priority: 0 }],
    },
    {
      name: 'high_value_article_decline',
      label: 'Articles over 100,000 are declined',
      folder: 'underwriting',
      type: 'rule',
      body: `rule high_value_article_decline "Articles over 100,000 are declined"
  category underwriting
  applies to home
when
  there is a risk scheduled_article where appraised_value > 100000
then
  raise issue 'HO-VALUE' severity decline blocking submit message 'Scheduled articles over 100,000 are outside our appetite.'
end
`,
      tags: [{ category: 'ComponentUsage', value: 'underwriting', priority: 0 }],
    },
    // Form inclusion: what the documents demo's declarations settings said (the Maine disclosure on
    // Maine homeowners policies, on renewals too), now decided by rules. The form is named as the
    // documents module names it (its STATE_FORM_NAME); rules keeps no copy of documents' forms.
    {
      name: 'maine_disclosure',
      label: 'Maine disclosure on Maine policies',
      folder: 'forms',
      type: 'rule',
      body: `rule maine_disclosure "Maine disclosure on Maine policies"
  category form-inclusion
  applies to home
when
  it is true that policy_state() = 'ME'
then
  attach form 'Maine homeowners disclosure (ME HO-D 01 26)' always print on renewal
end
`,
      tags: [{ category: 'ComponentUsage', value: 'form-inclusion', priority: 0 }],
    },
    {
      name: 'maine_renewal_disclosure',
      label: 'A Maine renewal prints the disclosure',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          risk: { type: 'home' },
          policy: { state: 'ME', transaction: 'renewal', hasMortgagee: false },
        },
        expect: {
          forms: { 'Maine homeowners disclosure (ME HO-D 01 26)': { prints: true, printing: 'print' } },
        },
      }),
    },
    {
      name: 'new_york_no_forms',
      label: 'A New York policy carries no state form',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          risk: { type: 'home' },
          policy: { state: 'NY', transaction: 'new_business', hasMortgagee: true },
        },
        expect: { forms: {} },
      }),
    },
    {
      name: 'old_roof_and_valuables',
      label: 'Old roof with a valuable article',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          user: { roles: ['Underwriter'] },
          risk: {
            id: 'h1',
            type: 'home',
            field_answers: { zip: '78701', protection_class: 9, year_built: 1990, roof_year: 1995, policy_year: 2026 },
            children: [
              { id: 'ring', type: 'scheduled_article', field_answers: { category: 'jewelry', appraised_value: 30000 } },
            ],
          },
        },
        expect: {
          actions: {
            construction: { optionsBlacklist: ['frame'] },
            roof_year: { isValid: true },
            'scheduled_article#ring.in_vault': { visible: true, mandatory: true },
          },
          issues: ['HO-ROOF'],
        },
      }),
    },
    {
      name: 'invalid_years_and_decline',
      label: 'Invalid years and a declined article',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          user: { roles: ['Agent'] },
          risk: {
            id: 'h2',
            type: 'home',
            field_answers: { protection_class: 3, year_built: 1820, roof_year: 1800, policy_year: 2026 },
            children: [
              {
                id: 'tiara',
                type: 'scheduled_article',
                field_answers: { category: 'jewelry', appraised_value: 150000 },
              },
            ],
          },
        },
        expect: {
          actions: {
            year_built: { isValid: false, validationMessage: 'This year is too early.' },
            roof_year: { isValid: false, validationMessage: 'The roof cannot be older than the house.' },
            construction: { optionsBlacklist: null },
          },
          issues: ['HO-ROOF', 'HO-VALUE'],
        },
      }),
    },
  ],
};

export const personalAutoRules: DemoProject = {
  name: 'personal_auto_rules',
  label: 'Personal auto rules',
  product: 'personal_auto',
  description: 'UI controls, validation and underwriting for Personal Auto quotes.',
  components: [
    {
      name: 'minimum_model_year',
      label: 'Model year not before a minimum',
      folder: 'templates',
      type: 'template',
      body: `template minimum_model_year "Model year not before a minimum"
  parameter earliest: number "Earliest model year" input-type number default 1981 documentation 'Older vehicles have no 17-character VIN'
  category validation
  applies to vehicle
when
  it is true that model_year < {{earliest}}
then
  mark model_year invalid message 'Vehicles this old cannot be quoted online.'
end
`,
    },
    {
      name: 'model_year_from_1981',
      label: 'Model year from 1981',
      folder: 'validation',
      type: 'rule',
      body: `rule model_year_from_1981 "Model year from 1981" from template minimum_model_year
  with earliest = 1981
end
`,
    },
    {
      name: 'business_use',
      label: 'Business use: no roadside, VIN required',
      folder: 'ui',
      type: 'rule',
      body: `rule business_use "Business use: no roadside, VIN required"
  category ui-control
  applies to vehicle
  priority 5
when
  it is true that usage = 'business'
then
  hide roadside
  make vin mandatory
otherwise
  show roadside
end
`,
    },
    {
      name: 'agents_keep_vin',
      label: 'Agents cannot change a VIN once entered',
      folder: 'ui',
      type: 'rule',
      body: `rule agents_keep_vin "Agents cannot change a VIN once entered"
  category role
  applies to vehicle
when
  user role is 'Agent', 'Agency'
  and it is true that answered('vin')
then
  make vin readonly
end
`,
    },
    {
      name: 'young_driver_referral',
      label: 'Drivers under 21 are referred',
      folder: 'underwriting',
      type: 'rule',
      body: `rule young_driver_referral "Drivers under 21 are referred"
  category underwriting
  applies to policy
  priority 10
when
  there is a risk driver where age < 21
then
  raise issue 'PA-YOUNG' severity refer blocking bind message 'A driver under 21 needs underwriter review.'
end
`,
      tags: [{ category: 'ComponentUsage', value: 'underwriting', priority: 0 }],
    },
    {
      name: 'fleet_decline',
      label: 'Five or more vehicles are declined',
      folder: 'underwriting',
      type: 'rule',
      body: `rule fleet_decline "Five or more vehicles are declined"
  category underwriting
  applies to policy
when
  there are at least 5 risks vehicle
then
  raise issue 'PA-FLEET' severity decline blocking submit message 'Five or more vehicles is a fleet; quote it as commercial auto.'
end
`,
      tags: [{ category: 'ComponentUsage', value: 'underwriting', priority: 0 }],
    },
    {
      name: 'violations_early_decline',
      label: 'Many violations decline early',
      folder: 'underwriting',
      type: 'rule',
      body: `rule violations_early_decline "Many violations decline early"
  category underwriting
  applies to driver
when
  it is true that violations + at_fault_accidents >= 4
then
  raise issue 'PA-RECORD' severity early-decline blocking rate message 'Driving record outside our appetite.'
end
`,
      tags: [{ category: 'ComponentUsage', value: 'underwriting', priority: 0 }],
    },
    {
      name: 'no_driver_warning',
      label: 'At least one driver',
      folder: 'validation',
      type: 'rule',
      body: `rule no_driver_warning "At least one driver"
  category validation
  applies to policy
when
  there is no risk driver
then
  raise issue 'PA-NODRIVER' severity warning blocking rate message 'Add at least one driver before rating.'
end
`,
    },
    {
      name: 'business_vehicle_young_driver',
      label: 'Business vehicle with a young driver',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          user: { roles: ['Underwriter'] },
          risk: {
            id: 'p1',
            type: 'policy',
            field_answers: { policy_year: 2026 },
            children: [
              {
                id: 'v1',
                type: 'vehicle',
                field_answers: { vin: '1HGCM82633A004352', model_year: 2019, usage: 'business' },
              },
              { id: 'v2', type: 'vehicle', field_answers: { model_year: 1975, usage: 'pleasure' } },
              { id: 'd1', type: 'driver', field_answers: { age: 19, violations: 0, at_fault_accidents: 0 } },
            ],
          },
        },
        expect: {
          actions: {
            'vehicle#v1.roadside': { visible: false },
            'vehicle#v1.vin': { mandatory: true, readonly: false },
            'vehicle#v2.roadside': { visible: true },
            'vehicle#v2.model_year': {
              isValid: false,
              validationMessage: 'Vehicles this old cannot be quoted online.',
            },
          },
          issues: ['PA-YOUNG'],
        },
      }),
    },
    {
      name: 'agent_fleet_no_driver',
      label: 'An agent quoting a fleet without drivers',
      folder: 'tests',
      type: 'test',
      body: test({
        context: {
          asOf: '2026-03-01',
          user: { roles: ['Agent'] },
          risk: {
            id: 'p2',
            type: 'policy',
            children: [1, 2, 3, 4, 5].map((n) => ({
              id: `v${n}`,
              type: 'vehicle',
              field_answers: { vin: `VIN${n}`, model_year: 2020, usage: 'commute' },
            })),
          },
        },
        expect: {
          actions: { 'vehicle#v1.vin': { readonly: true, mandatory: false } },
          issues: ['PA-FLEET', 'PA-NODRIVER'],
        },
      }),
    },
  ],
};

export const DEMO_PROJECTS = [homeownersRules, personalAutoRules];
