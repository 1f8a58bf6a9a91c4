import { describe, expect, it } from 'vitest';
import { diffRiskTypes } from '../../server/differences/product-differences.js';
import type { DocumentRiskType } from '../../server/transfer/product-document.js';

const field = (name: string, extra: Partial<DocumentRiskType['fields'][number]> = {}) => ({
  name,
  label: name,
  type: 'string' as const,
  default: null,
  default_label: null,
  source: null,
  order: 0,
  required: false,
  format: null,
  options: null,
  formula: null,
  round_places: null,
  round_mode: null,
  ...extra,
});
const item = (name: string, extra: Partial<DocumentRiskType['items'][number]> = {}) => ({
  name,
  label: name,
  presence: 'optional' as const,
  type: 'coverage' as const,
  fully_earned: false,
  order: 0,
  premium_calculation: null,
  limits: [],
  ...extra,
});
const riskType = (name: string, fields: DocumentRiskType['fields'], items: DocumentRiskType['items'] = []) => ({
  name,
  label: name,
  parent: null,
  sequence: 0,
  premium_calculation: null,
  fields,
  items,
  calculations: [],
});

describe('product differences', () => {
  const before = [
    riskType(
      'home',
      [
        field('zip'),
        field('year_built', { type: 'number', default: '1980' }),
        field('occupancy', { type: 'enum', options: [{ value: 'owner' }, { value: 'tenant' }] }),
        field('pool'),
      ],
      [item('dwelling'), item('theft')],
    ),
    riskType('boat', [field('length')]),
  ];
  const after = [
    riskType(
      'home',
      [
        field('zip', { order: 9 }),
        field('year_built', { type: 'number', default: '1990' }),
        field('occupancy', { type: 'enum', options: [{ value: 'owner' }, { value: 'seasonal' }] }),
        field('roof_year', { type: 'number', options: null }),
      ],
      [item('dwelling', { fully_earned: true }), item('water_backup')],
    ),
    riskType('auto', [field('vin')]),
  ];

  it('groups added, removed and changed fields and items per risk type', () => {
    const differences = diffRiskTypes(before, after);
    expect(differences.map((d) => [d.risk_type, d.status])).toEqual([
      ['home', 'changed'],
      ['auto', 'added'],
      ['boat', 'removed'],
    ]);
    const home = differences[0]!;
    expect(home.added.fields.map((f) => f.name)).toEqual(['roof_year']);
    expect(home.added.fields[0]!.old_value).toBeNull();
    expect(home.removed.fields.map((f) => [f.name, f.new_value])).toEqual([['pool', null]]);
    expect(home.changed.fields).toEqual([
      {
        name: 'year_built',
        label: 'year_built',
        old_value: { default: '1980' },
        new_value: { default: '1990' },
        options: { added: [], removed: [] },
      },
      {
        name: 'occupancy',
        label: 'occupancy',
        old_value: { options: [{ value: 'owner' }, { value: 'tenant' }] },
        new_value: { options: [{ value: 'owner' }, { value: 'seasonal' }] },
        options: { added: ['seasonal'], removed: ['tenant'] },
      },
    ]);
    expect(home.added.items.map((i) => i.name)).toEqual(['water_backup']);
    expect(home.removed.items.map((i) => i.name)).toEqual(['theft']);
    expect(home.changed.items).toEqual([
      { name: 'dwelling', label: 'dwelling', old_value: { fully_earned: false }, new_value: { fully_earned: true } },
    ]);
    expect(differences[2]!.removed.fields.map((f) => f.name)).toEqual(['length']);
  });

  it('leaves out risk types that did not change, and reordering alone', () => {
    const same = [riskType('home', [field('zip', { order: 1 }), field('a', { order: 2 })])];
    const reordered = [riskType('home', [field('a', { order: 1 }), field('zip', { order: 2 })])];
    expect(diffRiskTypes(same, reordered)).toEqual([]);
    expect(diffRiskTypes([], same)[0]!.added.fields).toHaveLength(2);
  });
});
