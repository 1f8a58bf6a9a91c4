import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@atrium/sdk';
import { parseRiskTypeHash } from '../routes.js';
import { failedKnownAnswerCases } from './known-answer-refusal.js';
import { flattenProducts, latestVersion, nestProducts, toLine, toProduct } from './lines-api.js';
import { toDifferences, toMapping } from './product-views-api.js';
import { moveId } from './reorder.js';
import { nestRiskTypes, toField, toRiskType } from './risk-types-api.js';
import { selectVersion } from './selection.js';

const product = (id: number, parent: number | null, versions: { id: number; status: string }[]) =>
  toProduct({ id, name: `P${id}`, line_id: 1, parent_product_id: parent, versions });

describe('lines catalog shapes', () => {
  it('nests a flat product list by parent, three levels deep', () => {
    const tree = nestProducts([product(1, null, []), product(2, 1, []), product(3, 2, []), product(4, null, [])]);
    expect(tree.map((p) => p.id)).toEqual([1, 4]);
    expect(tree[0]!.children[0]!.children[0]!.id).toBe(3);
    expect(flattenProducts(tree).map((p) => p.id)).toEqual([1, 2, 3, 4]);
  });

  it('picks the version version_id names, else the latest version of the line’s latest product', () => {
    const products = nestProducts([
      product(1, null, [
        { id: 10, status: 'published' },
        { id: 11, status: 'draft' },
      ]),
      product(2, 1, [{ id: 20, status: 'draft' }]),
    ]);
    const line = toLine({
      id: 1,
      name: 'Homeowners',
      latest_product: { id: 1, name: 'P1', latest_version: { id: 11 } },
    });
    expect(selectVersion(line, products, 20)).toMatchObject({ product: { id: 2 }, version: { id: 20 } });
    expect(selectVersion(line, products, null)).toMatchObject({ product: { id: 1 }, version: { id: 11 } });
    expect(selectVersion(line, products, 999)?.version?.id).toBe(11);
    expect(latestVersion(toProduct({ versions: [{ id: 3, deleted_at: '2026-01-01' }, { id: 2 }] }))?.id).toBe(2);
  });

  it('reads camelCase and snake_case fields alike (inheritance status, type object, default)', () => {
    expect(
      toField({
        id: 1,
        name: 'roof',
        type: { id: 3, name: 'enum' },
        defaultValue: 'tile',
        inheritanceStatus: 'inherited',
      }),
    ).toMatchObject({
      type: 'enum',
      default: 'tile',
      inheritanceStatus: 'inherited',
    });
    expect(toField({ id: 1, name: 'x', type: 'number', default_value: '5', deleted_at: '2026-01-01' })).toMatchObject({
      default: '5',
      deleted: true,
    });
  });

  it('nests risk types by parent', () => {
    const tree = nestRiskTypes([
      toRiskType({ id: 1, name: 'dwelling', parent_risk_type_id: null }),
      toRiskType({ id: 2, name: 'pool', parent_risk_type_id: 1 }),
    ]);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.children.map((t) => t.name)).toEqual(['pool']);
  });

  it('moves an id for drag and drop and up/down, ignoring moves out of range', () => {
    expect(moveId([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveId([1, 2, 3], 2, 1)).toEqual([1, 3, 2]);
    expect(moveId([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
  });

  it('reads the route hash as a tab or a field to open', () => {
    expect(parseRiskTypeHash(undefined)).toEqual({ tab: 'fields', field: null });
    expect(parseRiskTypeHash('items')).toEqual({ tab: 'items', field: null });
    expect(parseRiskTypeHash('field-roof_type')).toEqual({ tab: 'fields', field: 'roof_type' });
    expect(parseRiskTypeHash('nonsense')).toEqual({ tab: 'fields', field: null });
  });

  it('reads differences as a list or keyed by risk type', () => {
    const keyed = toDifferences({
      dwelling: {
        added: { fields: [{ name: 'roof', old_value: null, new_value: 'tile' }], items: [{ name: 'theft' }] },
      },
    });
    expect(keyed[0]).toMatchObject({
      riskType: 'dwelling',
      added: { fields: [{ name: 'roof', newValue: 'tile' }], items: [{ name: 'theft' }] },
    });
    const listed = toDifferences({ differences: [{ risk_type: 'auto', removed: { fields: [{ name: 'vin' }] } }] });
    expect(listed[0]!.removed.fields[0]!.name).toBe('vin');
  });

  it('reads a mapping per risk type', () => {
    expect(
      toMapping({ mapping: { dwelling: { fields: [{ sources: 'a', targets: ['b'], operation: 'map' }] } } }),
    ).toEqual({
      dwelling: { fields: [{ sources: ['a'], targets: ['b'], operation: 'map' }] },
    });
  });

  it('finds the failing known-answer cases in a refused publish', () => {
    const error = new ApiRequestError({
      status: 400,
      message: 'This version cannot be published: 1 of 2 known-answer cases differs',
      body: {
        detail: 'This version cannot be published',
        known_answer: {
          cases: [
            { name: 'Ok case', passed: true, differences: [] },
            {
              name: 'Frame house',
              passed: false,
              expected_premium: '812.00',
              actual_premium: '830.40',
              differences: [{ message: 'base_rate: expected 1.20, got 1.23' }],
            },
          ],
        },
      },
    });
    expect(failedKnownAnswerCases(error)).toEqual([
      {
        name: 'Frame house',
        expected: '812.00',
        actual: '830.40',
        error: null,
        differences: ['base_rate: expected 1.20, got 1.23'],
      },
    ]);
  });
});
