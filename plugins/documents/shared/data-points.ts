import type { Subject } from './shapes.js';

/**
 * The data-point catalogue (docs/documents.md, "Data points"): every path a template may read from
 * `data`, with its type, a sample value and the module the value comes from. Until the policies
 * module lands the samples below stand in for a real policy and claim. Money is a decimal string.
 */
export type DataPointType = 'text' | 'date' | 'money' | 'integer' | 'list';

export interface DataPoint {
  path: string;
  type: DataPointType;
  sample_value: string;
  source_module: string;
  subject: Subject;
}

// 2: the quote subject (quote documents).
export const DATA_POINTS_VERSION = 2;

export const SAMPLE_POLICY = {
  policy: {
    number: 'HO-2026-000123',
    line: 'Homeowners',
    term_start: '2026-03-01',
    term_end: '2027-03-01',
    premium: '1284.50',
    insured: { name: 'Jordan Avery', address: '12 Harbor Lane, Portland, ME 04101' },
    coverages: [
      { code: 'A', name: 'Dwelling', limit: '350000.00', premium: '812.00' },
      { code: 'B', name: 'Other structures', limit: '35000.00', premium: '64.50' },
      { code: 'C', name: 'Personal property', limit: '175000.00', premium: '288.00' },
      { code: 'E', name: 'Personal liability', limit: '300000.00', premium: '120.00' },
    ],
  },
  agency: { name: 'Casco Bay Insurance Agency' },
};

export const SAMPLE_CLAIM = {
  claim: {
    number: 'CLM-2026-004567',
    loss_date: '2026-10-14',
    reported_date: '2026-10-15',
    description: 'Water damage to the kitchen ceiling from a burst pipe.',
    claimant: { name: 'Jordan Avery', address: '12 Harbor Lane, Portland, ME 04101' },
    policy_number: 'HO-2026-000123',
    adjuster: { name: 'Casey Morgan', phone: '(207) 555-0142' },
  },
};

/**
 * A quote as quote documents read it (the quote module's `quote.lookup` answers a real one in this
 * shape). `risks` are the risk tree flattened root first, each with its answers as label and
 * printable value (the product's field labels), so a summary can print any line's questions.
 */
export const SAMPLE_QUOTE = {
  quote: {
    number: 'Q-900001',
    line: 'Homeowners HO-3',
    status: 'Approved',
    effective_date: '2026-03-01',
    expiration_date: '2027-03-01',
    state: 'TX',
    premium: '1284.50',
    insured: { name: 'Jordan Avery', email: 'jordan.avery@example.com' },
    agent: { name: 'Alex Agent' },
    risks: [
      {
        label: 'Home',
        answers: [
          { label: 'ZIP code', value: '78701' },
          { label: 'Year built', value: '1990' },
        ],
        coverages: [{ name: 'Dwelling', limit: '350000.00', deductible: '1000.00' }],
      },
    ],
  },
  agency: { name: 'Harbour Insurance Agency' },
};

export const SAMPLES: Record<Subject, Record<string, unknown>> = {
  policy: SAMPLE_POLICY,
  claim: SAMPLE_CLAIM,
  quote: SAMPLE_QUOTE,
};

const p = (path: string, type: DataPointType, sample: string, source: string): DataPoint => ({
  path,
  type,
  sample_value: sample,
  source_module: source,
  subject: 'policy',
});
const c = (path: string, type: DataPointType, sample: string, source: string): DataPoint => ({
  ...p(path, type, sample, source),
  subject: 'claim',
});
const q = (path: string, type: DataPointType, sample: string, source: string): DataPoint => ({
  ...p(path, type, sample, source),
  subject: 'quote',
});

export const DATA_POINTS: DataPoint[] = [
  p('policy.number', 'text', 'HO-2026-000123', 'policies'),
  p('policy.line', 'text', 'Homeowners', 'lines'),
  p('policy.term_start', 'date', '2026-03-01', 'policies'),
  p('policy.term_end', 'date', '2027-03-01', 'policies'),
  p('policy.premium', 'money', '1284.50', 'policies'),
  p('policy.insured.name', 'text', 'Jordan Avery', 'contacts'),
  p('policy.insured.address', 'text', '12 Harbor Lane, Portland, ME 04101', 'contacts'),
  p('policy.coverages', 'list', '4 coverages', 'policies'),
  p('policy.coverages[].code', 'text', 'A', 'lines'),
  p('policy.coverages[].name', 'text', 'Dwelling', 'lines'),
  p('policy.coverages[].limit', 'money', '350000.00', 'policies'),
  p('policy.coverages[].premium', 'money', '812.00', 'policies'),
  p('agency.name', 'text', 'Casco Bay Insurance Agency', 'contacts'),
  c('claim.number', 'text', 'CLM-2026-004567', 'claims'),
  c('claim.loss_date', 'date', '2026-10-14', 'claims'),
  c('claim.reported_date', 'date', '2026-10-15', 'claims'),
  c('claim.description', 'text', 'Water damage to the kitchen ceiling from a burst pipe.', 'claims'),
  c('claim.claimant.name', 'text', 'Jordan Avery', 'contacts'),
  c('claim.claimant.address', 'text', '12 Harbor Lane, Portland, ME 04101', 'contacts'),
  c('claim.policy_number', 'text', 'HO-2026-000123', 'claims'),
  c('claim.adjuster.name', 'text', 'Casey Morgan', 'claims'),
  c('claim.adjuster.phone', 'text', '(207) 555-0142', 'claims'),
  q('quote.number', 'text', 'Q-900001', 'quote'),
  q('quote.line', 'text', 'Homeowners HO-3', 'lines'),
  q('quote.status', 'text', 'Approved', 'quote'),
  q('quote.effective_date', 'date', '2026-03-01', 'quote'),
  q('quote.expiration_date', 'date', '2027-03-01', 'quote'),
  q('quote.state', 'text', 'TX', 'quote'),
  q('quote.premium', 'money', '1284.50', 'quote'),
  q('quote.insured.name', 'text', 'Jordan Avery', 'quote'),
  q('quote.insured.email', 'text', 'jordan.avery@example.com', 'contacts'),
  q('quote.agent.name', 'text', 'Alex Agent', 'contacts'),
  q('quote.risks', 'list', '1 risk', 'quote'),
  q('quote.risks[].label', 'text', 'Home', 'lines'),
  q('quote.risks[].answers', 'list', '2 answers', 'quote'),
  q('quote.risks[].coverages', 'list', '1 coverage', 'quote'),
  q('agency.name', 'text', 'Harbour Insurance Agency', 'contacts'),
];

const valueAt = (data: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      data,
    );
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The catalogue paths of a subject that have no value in `data` (missing, null or empty): what a
 * preview lists beside the template, so an author sees which data points a real record leaves blank.
 * A list's element fields are named per element (`policy.coverages[2].limit`).
 */
export function unresolvedPaths(subject: Subject, data: unknown): string[] {
  const missing: string[] = [];
  for (const point of DATA_POINTS.filter((p) => p.subject === subject)) {
    const [listPath, field] = point.path.split('[].') as [string, string | undefined];
    if (field === undefined) {
      if (isEmpty(valueAt(data, point.path))) missing.push(point.path);
      continue;
    }
    // A missing list is reported as the list itself (above); its elements' fields one by one.
    const list = valueAt(data, listPath);
    if (!Array.isArray(list)) continue;
    list.forEach((element, index) => {
      if (isEmpty(valueAt(element, field))) missing.push(`${listPath}[${index}].${field}`);
    });
  }
  return missing;
}
