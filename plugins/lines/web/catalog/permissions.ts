/**
 * The access resources the Lines screens ask `useCan` about (docs/access.md: `<module>:<thing>`).
 * The server checks every call again; these only hide doors that would not open.
 */
export const LINES_RESOURCES = {
  line: 'lines:line',
  product: 'lines:product',
  version: 'lines:version',
  riskType: 'lines:risk-type',
  field: 'lines:risk-field',
  item: 'lines:risk-item',
  mapping: 'lines:mapping',
  export: 'lines:export',
  import: 'lines:import',
  sequence: 'lines:sequence',
} as const;
