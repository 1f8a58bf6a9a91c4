import { describe, expect, it } from 'vitest';
import { tryParseBrl } from '@atrium/rating/rules';
import type { ComponentJson } from '../../shared/api-types.js';
import { clonedBody, componentTree, nameFromLabel, newComponentBody } from './component-text.js';

const component = (id: number, name: string, folder: string, pkg = 1): ComponentJson => ({
  id,
  name,
  label: '',
  folder,
  component_type: 'rule',
  package: pkg,
  package_name: 'p',
  full_name: `p.${name}`,
  tags: [],
  state: 'enabled',
  effective_date: 1,
  uncommitted: false,
  date_modified: '2026-01-01T00:00:00Z',
  modified_by: 'a',
});

describe('component text helpers', () => {
  it('suggests a name from a label', () => {
    expect(nameFromLabel('Usage is required!')).toBe('usage_is_required');
    expect(nameFromLabel('5 vehicles')).toBe('c_5_vehicles');
    expect(nameFromLabel('  ')).toBe('');
  });

  it('starts a rule and a template with a text that parses, and a test as the JSON the test job reads', () => {
    for (const type of ['rule', 'template'] as const) {
      const { component, problems } = tryParseBrl(
        newComponentBody(type, 'usage_required', "Usage's required", 'vehicle', '2026-07-01'),
      );
      expect(problems).toEqual([]);
      expect(component).toMatchObject({
        kind: type,
        name: 'usage_required',
        label: "Usage's required",
        appliesTo: 'vehicle',
      });
    }
    const test = JSON.parse(newComponentBody('test', 't', 'T', 'policy', '2026-07-01')) as {
      context: { asOf: string; risk: { type: string } };
    };
    expect(test.context.asOf).toBe('2026-07-01');
    expect(test.context.risk.type).toBe('policy');
  });

  it('renames a clone in its tree, and copies a test as it is', () => {
    const body =
      "rule business_use 'Business use'\n  category ui-control\n  applies to vehicle\nwhen\n  it is true that usage = 'business'\nthen\n  hide roadside\nend\n";
    const copy = clonedBody('rule', body, 'business_use_copy', 'Business use (copy)');
    expect(tryParseBrl(copy).component).toMatchObject({ name: 'business_use_copy', label: 'Business use (copy)' });
    expect(copy).toContain("it is true that usage = 'business'");
    expect(clonedBody('test', '{"a":1}', 'x', 'y')).toBe('{"a":1}');
    expect(clonedBody('rule', 'not brl', 'x', 'y')).toBe('not brl');
  });

  it('builds packages → folders → components, sorted, empty packages included', () => {
    const tree = componentTree(
      [
        { id: 1, name: 'auto' },
        { id: 2, name: 'empty' },
      ],
      [component(3, 'b', 'ui'), component(4, 'a', 'ui/deep'), component(5, 'top', ''), component(6, 'z', 'tests')],
    );
    expect(tree.map((t) => t.label)).toEqual(['auto', 'empty']);
    expect(tree[0]!.children!.map((t) => `${t.kind}:${t.label}`)).toEqual([
      'folder:tests',
      'folder:ui',
      'component:top',
    ]);
    const ui = tree[0]!.children![1]!;
    expect(ui.children!.map((t) => `${t.kind}:${t.label}`)).toEqual(['folder:deep', 'component:b']);
    expect(ui.children![0]).toMatchObject({ id: 'folder-1-ui/deep', packageId: 1, path: 'ui/deep' });
    expect(tree[1]!.children).toEqual([]);
  });
});
