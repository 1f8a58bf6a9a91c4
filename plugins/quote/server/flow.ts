import type { ProductDefinition } from '@atrium/rating';
import type { FlowField, FlowItem, FlowPage, FlowRiskType, QuoteFlow } from '../shared/flow.js';

/**
 * The page flow of a product version. A product's own flow would be authored with the product (a
 * slot in the lines version screen, not there yet); until then every product gets the default flow
 * built from its version's definition: one page per risk type (root first), review, billing and
 * bind. The demo lines add labels, required fields and their coverages' limits (DEMO_OVERLAYS).
 */
export const FLOW_VERSION = 1;

interface Overlay {
  riskTypes: Record<
    string,
    {
      label: string;
      pageLabel?: string;
      fields: Record<string, { label: string; required?: boolean }>;
      items: FlowItem[];
    }
  >;
}

const amounts = (options: string[]) => ({ options });

export const DEMO_OVERLAYS: Record<string, Overlay> = {
  homeowners: {
    riskTypes: {
      home: {
        label: 'Home',
        fields: {
          zip: { label: 'ZIP code', required: true },
          construction: { label: 'Construction' },
          protection_class: { label: 'Protection class', required: true },
          year_built: { label: 'Year built', required: true },
          roof_year: { label: 'Roof year', required: true },
          policy_year: { label: 'Policy year' },
        },
        items: [
          {
            name: 'dwelling',
            label: 'Dwelling (Coverage A)',
            presence: 'required',
            limit: { label: 'Coverage A limit', default: '250000', min: '50000', max: '2000000' },
            deductible: {
              label: 'All perils deductible',
              default: '1000',
              ...amounts(['500', '1000', '2500', '5000']),
            },
          },
          {
            name: 'personal_liability',
            label: 'Personal liability (Coverage E)',
            presence: 'default',
            limit: { label: 'Each occurrence', default: '300000', ...amounts(['100000', '300000', '500000']) },
          },
          { name: 'scheduled_jewelry', label: 'Scheduled jewelry', presence: 'optional' },
        ],
      },
      scheduled_article: {
        label: 'Scheduled article',
        pageLabel: 'Scheduled articles',
        fields: {
          category: { label: 'Category', required: true },
          appraised_value: { label: 'Appraised value', required: true },
          in_vault: { label: 'Kept in a vault' },
        },
        items: [],
      },
    },
  },
  personal_auto: {
    riskTypes: {
      policy: {
        label: 'Policy',
        pageLabel: 'Policy',
        fields: {
          policy_year: { label: 'Policy year' },
          multi_policy: { label: 'Multi-policy discount' },
          paid_in_full: { label: 'Paid in full' },
        },
        items: [],
      },
      vehicle: {
        label: 'Vehicle',
        pageLabel: 'Vehicles',
        fields: {
          vin: { label: 'VIN' },
          model_year: { label: 'Model year', required: true },
          symbol: { label: 'Rating symbol', required: true },
          usage: { label: 'Usage' },
          garaging_zip: { label: 'Garaging ZIP', required: true },
        },
        items: [
          {
            name: 'bodily_injury',
            label: 'Bodily injury liability',
            presence: 'required',
            limit: { label: 'Per person', default: '100000', ...amounts(['30000', '50000', '100000', '250000']) },
          },
          {
            name: 'property_damage',
            label: 'Property damage liability',
            presence: 'required',
            limit: { label: 'Per accident', default: '50000', ...amounts(['25000', '50000', '100000']) },
          },
          {
            name: 'collision',
            label: 'Collision',
            presence: 'default',
            deductible: { label: 'Deductible', default: '500', ...amounts(['250', '500', '1000']) },
          },
          {
            name: 'comprehensive',
            label: 'Comprehensive',
            presence: 'default',
            deductible: { label: 'Deductible', default: '500', ...amounts(['100', '250', '500', '1000']) },
          },
          { name: 'roadside', label: 'Roadside assistance', presence: 'optional' },
        ],
      },
      driver: {
        label: 'Driver',
        pageLabel: 'Drivers',
        fields: {
          first_name: { label: 'First name' },
          last_name: { label: 'Last name' },
          date_of_birth: { label: 'Date of birth' },
          age: { label: 'Age', required: true },
          violations: { label: 'Violations (3 years)' },
          at_fault_accidents: { label: 'At-fault accidents (3 years)' },
        },
        items: [],
      },
    },
  },
};

/** "year_built" → "Year built". */
export const humanise = (name: string) => {
  const text = name.replace(/_/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

function riskTypesOf(productName: string, definition: ProductDefinition): FlowRiskType[] {
  const overlay = DEMO_OVERLAYS[productName];
  // Root first, then children in the definition's order (a parent before its children).
  const ordered = [...definition.riskTypes].sort(
    (a, b) => Number(b.name === definition.rootRiskType) - Number(a.name === definition.rootRiskType),
  );
  return ordered.map((type) => {
    const own = overlay?.riskTypes[type.name];
    const fields: FlowField[] = (type.fields ?? [])
      .filter((f) => f.type !== 'computed')
      .map((f) => ({
        name: f.name,
        label: own?.fields[f.name]?.label ?? humanise(f.name),
        type: f.type as FlowField['type'],
        ...(own?.fields[f.name]?.required ? { required: true } : {}),
        ...(f.options ? { options: f.options } : {}),
        ...(f.default !== undefined && f.default !== null ? { default: String(f.default) } : {}),
      }));
    const items: FlowItem[] =
      own?.items ??
      (type.items ?? []).map((i) => ({ name: i.name, label: humanise(i.name), presence: 'optional' as const }));
    return {
      name: type.name,
      label: own?.label ?? humanise(type.name),
      parent: type.name === definition.rootRiskType ? null : (type.parent ?? definition.rootRiskType),
      fields,
      items,
    };
  });
}

/** The flow of a product version (the default flow; see above). */
export function buildFlow(productName: string, versionId: number, definition: ProductDefinition): QuoteFlow {
  const riskTypes = riskTypesOf(productName, definition);
  const overlay = DEMO_OVERLAYS[productName];
  const riskPages: FlowPage[] = riskTypes.map((type) => ({
    name: type.name.replace(/_/g, '-'),
    label: overlay?.riskTypes[type.name]?.pageLabel ?? (type.parent === null ? type.label : `${type.label}s`),
    components: [
      { type: 'riskEdit', risk_type: type.name, policy: type.parent === null ? 'root' : 'many' },
      { type: 'backButton' },
      { type: 'continueButton' },
    ],
  }));
  return {
    flow_version: FLOW_VERSION,
    product: productName,
    product_version_id: versionId,
    header_toolbar: ['rate', 'submit', 'bind'],
    footer_toolbar: ['back', 'continue'],
    sidebar: ['quote_id', 'line', 'dates', 'premium', 'steps'],
    page_groups: [
      { name: 'risks', label: 'Risks', pages: riskPages },
      {
        name: 'review',
        label: 'Review',
        pages: [
          {
            name: 'review',
            label: 'Review',
            review: true,
            components: [
              { type: 'reviewPanel' },
              { type: 'backButton' },
              { type: 'continueButton', label: 'Continue' },
            ],
          },
        ],
      },
      {
        name: 'issue',
        label: 'Issue',
        pages: [
          {
            name: 'billing',
            label: 'Billing',
            components: [{ type: 'billingPanel' }, { type: 'backButton' }, { type: 'continueButton' }],
          },
          { name: 'bind', label: 'Bind', components: [{ type: 'bindPanel' }, { type: 'backButton' }] },
        ],
      },
    ],
    risk_types: riskTypes,
  };
}
