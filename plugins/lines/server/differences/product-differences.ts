import type { DocumentRiskType } from '../transfer/product-document.js';

/**
 * What changed between two versions of a product, per risk type, as a pure function over the two
 * versions' documents (the export format, inheritance resolved). Fields and items are matched by name
 * (any case); `order` alone is not a change.
 *
 * - `added`: fields/items only in the newer version (`old_value` null, `new_value` the definition);
 * - `removed`: only in the older one (`old_value` the definition, `new_value` null);
 * - `changed`: in both but different; `old_value` / `new_value` hold just the attributes that differ.
 *
 * A field's `options` lists the enum option values added and removed (for an added field, all of its
 * options are added; for a removed one, all removed). Risk types without a change are left out; a
 * risk type new in the version has everything under `added`.
 */
export interface FieldChange {
  name: string;
  label: string;
  old_value: Record<string, unknown> | null;
  new_value: Record<string, unknown> | null;
  options: { added: string[]; removed: string[] };
}

export interface ItemChange {
  name: string;
  label: string;
  old_value: Record<string, unknown> | null;
  new_value: Record<string, unknown> | null;
}

export interface ChangeGroup {
  fields: FieldChange[];
  items: ItemChange[];
}

export interface RiskTypeDifference {
  risk_type: string;
  label: string;
  /** 'added' or 'removed' when the whole risk type is new or gone, else 'changed'. */
  status: 'added' | 'removed' | 'changed';
  added: ChangeGroup;
  removed: ChangeGroup;
  changed: ChangeGroup;
}

type Field = DocumentRiskType['fields'][number];
type Item = DocumentRiskType['items'][number];

const key = (name: string) => name.toLowerCase();
const optionValues = (field: Field | undefined) => (field?.options ?? []).map((o) => o.value);

function withoutOrder<T extends { order?: number }>(value: T): Record<string, unknown> {
  const { order: _order, ...rest } = value;
  void _order;
  return rest;
}

function itemValue(item: Item): Record<string, unknown> {
  const rest = withoutOrder(item);
  return { ...rest, limits: item.limits.map((l) => withoutOrder(l)) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The attributes that differ, as { old, new } halves. */
function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const oldValue: Record<string, unknown> = {};
  const newValue: Record<string, unknown> = {};
  for (const attribute of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!same(before[attribute] ?? null, after[attribute] ?? null)) {
      oldValue[attribute] = before[attribute] ?? null;
      newValue[attribute] = after[attribute] ?? null;
    }
  }
  return Object.keys(oldValue).length === 0 ? null : { oldValue, newValue };
}

const emptyGroup = (): ChangeGroup => ({ fields: [], items: [] });

function diffFields(before: Field[], after: Field[], into: RiskTypeDifference) {
  const old = new Map(before.map((f) => [key(f.name), f]));
  const now = new Map(after.map((f) => [key(f.name), f]));
  for (const field of after) {
    const previous = old.get(key(field.name));
    const newOptions = optionValues(field);
    if (!previous) {
      into.added.fields.push({
        name: field.name,
        label: field.label,
        old_value: null,
        new_value: withoutOrder(field),
        options: { added: newOptions, removed: [] },
      });
      continue;
    }
    const change = changedAttributes(withoutOrder(previous), withoutOrder(field));
    if (!change) continue;
    const oldOptions = optionValues(previous);
    into.changed.fields.push({
      name: field.name,
      label: field.label,
      old_value: change.oldValue,
      new_value: change.newValue,
      options: {
        added: newOptions.filter((o) => !oldOptions.includes(o)),
        removed: oldOptions.filter((o) => !newOptions.includes(o)),
      },
    });
  }
  for (const field of before) {
    if (now.has(key(field.name))) continue;
    into.removed.fields.push({
      name: field.name,
      label: field.label,
      old_value: withoutOrder(field),
      new_value: null,
      options: { added: [], removed: optionValues(field) },
    });
  }
}

function diffItems(before: Item[], after: Item[], into: RiskTypeDifference) {
  const old = new Map(before.map((i) => [key(i.name), i]));
  const now = new Map(after.map((i) => [key(i.name), i]));
  for (const item of after) {
    const previous = old.get(key(item.name));
    if (!previous) {
      into.added.items.push({ name: item.name, label: item.label, old_value: null, new_value: itemValue(item) });
      continue;
    }
    const change = changedAttributes(itemValue(previous), itemValue(item));
    if (change) {
      into.changed.items.push({
        name: item.name,
        label: item.label,
        old_value: change.oldValue,
        new_value: change.newValue,
      });
    }
  }
  for (const item of before) {
    if (!now.has(key(item.name))) {
      into.removed.items.push({ name: item.name, label: item.label, old_value: itemValue(item), new_value: null });
    }
  }
}

export function diffRiskTypes(before: DocumentRiskType[], after: DocumentRiskType[]): RiskTypeDifference[] {
  const old = new Map(before.map((t) => [key(t.name), t]));
  const now = new Map(after.map((t) => [key(t.name), t]));
  const out: RiskTypeDifference[] = [];
  const consider = (riskType: DocumentRiskType, status: RiskTypeDifference['status']) => {
    const difference: RiskTypeDifference = {
      risk_type: riskType.name,
      label: riskType.label,
      status,
      added: emptyGroup(),
      removed: emptyGroup(),
      changed: emptyGroup(),
    };
    const previous = status === 'added' ? undefined : old.get(key(riskType.name));
    const current = status === 'removed' ? undefined : now.get(key(riskType.name));
    diffFields(previous?.fields ?? [], current?.fields ?? [], difference);
    diffItems(previous?.items ?? [], current?.items ?? [], difference);
    const groups = [difference.added, difference.removed, difference.changed];
    if (status !== 'changed' || groups.some((g) => g.fields.length > 0 || g.items.length > 0)) out.push(difference);
  };
  for (const riskType of after) consider(riskType, old.has(key(riskType.name)) ? 'changed' : 'added');
  for (const riskType of before) if (!now.has(key(riskType.name))) consider(riskType, 'removed');
  return out;
}
