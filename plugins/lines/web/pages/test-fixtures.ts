/** Fake API answers shared by the Lines page tests (the shapes the catalog routes send). */
export const HOMEOWNERS = {
  id: 1,
  name: 'Homeowners',
  label: 'Homeowners',
  latest_product: { id: 5, name: 'HO3', latest_version: { id: 12, status: 'draft' } },
};

/** `lines/lines/` as the server answers it (every line, `{count, results}`) and one line by id or name. */
export const HOMEOWNERS_LINES = {
  'GET /lines/lines/': { count: 1, results: [HOMEOWNERS] },
  'GET /lines/lines/:line/': HOMEOWNERS,
};

export const HO3 = {
  id: 5,
  name: 'HO3',
  label: 'HO3 Special Form',
  line_id: 1,
  parent_product_id: null,
  versions: [
    {
      id: 11,
      number: 1,
      label: '2026.1',
      status: 'published',
      effective_date: '2026-01-01',
      allowed_statuses: ['retired'],
    },
    {
      id: 12,
      number: 2,
      label: '2026.2',
      status: 'draft',
      effective_date: '2026-07-01',
      allowed_statuses: ['published'],
    },
  ],
};

export const HO3_CONDO = {
  id: 6,
  name: 'HO3Condo',
  label: 'HO3 Condo',
  line_id: 1,
  parent_product_id: 5,
  versions: [{ id: 21, number: 1, status: 'draft' }],
};

export const RISK_TYPES = [
  { id: 7, name: 'dwelling', label: 'Dwelling', parent_risk_type_id: null, inheritanceStatus: 'own' },
  { id: 8, name: 'pool', label: 'Swimming pool', parent_risk_type_id: 7, inheritanceStatus: 'own' },
];

export const FIELDS = [
  {
    id: 31,
    name: 'year_built',
    label: 'Year built',
    type: 'number',
    default_value: null,
    order: 1,
    inheritanceStatus: 'own',
  },
  {
    id: 32,
    name: 'construction',
    label: 'Construction',
    type: 'enum',
    options: [{ value: 'frame' }, { value: 'masonry' }],
    default_value: 'frame',
    order: 2,
    inheritanceStatus: 'own',
  },
];

export const problem = (
  status: number,
  detail: string,
  errors: { pointer?: string; detail: string }[] = [{ detail }],
  extra = {},
) =>
  new Response(JSON.stringify({ status, detail, errors, ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });
