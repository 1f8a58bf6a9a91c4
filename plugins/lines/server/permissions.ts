import type { Permission, PermissionDeclaration } from '@atrium/sdk/server';

/**
 * Every permission a lines route is checked against. Reads of anything in a product's definition
 * (risk types, fields, items, tables, calculations, differences, rating context) use the read action
 * of that thing, so an Underwriter (read on `lines:*`) can look but not change.
 */
const crud = <R extends string>(resource: R) =>
  ({
    read: { resource, action: 'read' },
    create: { resource, action: 'create' },
    update: { resource, action: 'update' },
    delete: { resource, action: 'delete' },
  }) as const satisfies Record<string, Permission>;

export const LINES_PERMISSIONS = {
  line: crud('lines:line'),
  product: crud('lines:product'),
  version: {
    ...crud('lines:version'),
    /** Publish, retire and reinstate a version. */
    publish: { resource: 'lines:version', action: 'publish' },
  },
  riskType: crud('lines:risk-type'),
  riskField: crud('lines:risk-field'),
  riskItem: crud('lines:risk-item'),
  rateTable: crud('lines:rate-table'),
  calculation: crud('lines:calculation'),
  sequence: crud('lines:sequence'),
  fieldFormat: { read: { resource: 'lines:field-format', action: 'read' } },
  scenario: {
    ...crud('lines:scenario'),
    /** Rate a scenario (writes its last rating). */
    rate: { resource: 'lines:scenario', action: 'rate' },
  },
  /** POST /api/rating/rate-quote/ and evaluate-quote-computed-fields/. */
  rating: { rate: { resource: 'lines:rating', action: 'rate' } },
  import: {
    read: { resource: 'lines:import', action: 'read' },
    create: { resource: 'lines:import', action: 'create' },
  },
  export: {
    read: { resource: 'lines:export', action: 'read' },
    create: { resource: 'lines:export', action: 'create' },
  },
  mapping: {
    read: { resource: 'lines:mapping', action: 'read' },
    update: { resource: 'lines:mapping', action: 'update' },
  },
} as const;

const THINGS: Record<string, string> = {
  'lines:line': 'lines of business',
  'lines:product': 'products (and child products)',
  'lines:version': 'product versions',
  'lines:risk-type': 'risk types',
  'lines:risk-field': 'risk fields',
  'lines:risk-item': 'risk items with their limits and deductibles',
  'lines:rate-table': 'rate tables and their rows',
  'lines:calculation': 'calculations',
  'lines:sequence': 'sequences',
  'lines:field-format': 'field formats',
  'lines:scenario': 'scenarios and their risks',
  'lines:rating': 'quote ratings',
  'lines:import': 'product imports',
  'lines:export': 'product exports',
  'lines:mapping': 'product mappings',
};

const VERBS: Record<string, string> = {
  read: 'List and read',
  create: 'Create',
  update: 'Change',
  delete: 'Delete',
  publish: 'Publish, retire and reinstate',
  rate: 'Rate',
};

export const LINES_PERMISSION_DECLARATIONS: PermissionDeclaration[] = [
  ...Object.values(LINES_PERMISSIONS).flatMap((group) =>
    Object.values(group).map((permission: Permission) => ({
      ...permission,
      description: `${VERBS[permission.action] ?? permission.action} ${THINGS[permission.resource] ?? permission.resource}.`,
    })),
  ),
  { resource: 'ui:lines', action: 'ViewModule', description: 'See the Lines module.' },
];
