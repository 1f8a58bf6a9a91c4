import type { LinesRating, RateRiskRequest } from '@atrium/plugin-lines/rating-service';

/**
 * Re-rating through the lines module's rating engine (LINES_RATING, optional): a policy's risk data
 * is a rating tree when it came from a quote (the quote's risk tree: `risk_state` with the type,
 * answers and items, children under `risk_quotes`) or is a unified risk state (`type`,
 * `field_answers`, `items`, `children`). Anything else (the demo's flat risk data, test policies)
 * cannot be re-rated and the caller carries the premium, saying why.
 */
type RiskInput = RateRiskRequest['risk'];
type Item = NonNullable<RiskInput['items']>[number];

const scalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function items(list: unknown): Item[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const i = record(raw);
    if (!i || typeof i.name !== 'string') return [];
    const item: Item = { name: i.name };
    if (typeof i.limit === 'string' || typeof i.limit === 'number') item.limit = i.limit;
    if (typeof i.deductible === 'string' || typeof i.deductible === 'number') item.deductible = i.deductible;
    const limits = record(i.limits);
    if (limits && Object.keys(limits).length) item.limits = limits as Record<string, string>;
    const deductibles = record(i.deductibles);
    if (deductibles && Object.keys(deductibles).length) item.deductibles = deductibles as Record<string, string>;
    return [item];
  });
}

/** The stored risk data as the engine reads it; null when it is not a rating tree. */
export function ratingTree(risks: unknown, depth = 0): RiskInput | null {
  const node = record(risks);
  if (!node || depth > 7) return null;
  const state = record(node.risk_state) ?? node;
  const type = record(state.type)?.name ?? (typeof state.type === 'string' ? state.type : null);
  const answers = record(state.field_answers);
  if (typeof type !== 'string' || !answers) return null;
  const rawChildren = Array.isArray(node.risk_quotes)
    ? node.risk_quotes
    : Array.isArray(node.children)
      ? node.children
      : [];
  const children: RiskInput[] = [];
  for (const child of rawChildren) {
    const converted = ratingTree(child, depth + 1);
    if (!converted) return null;
    children.push(converted);
  }
  return {
    ...(node.id !== undefined && node.id !== null ? { id: String(node.id) } : {}),
    type,
    answers: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, scalar(v)])),
    items: items(state.items),
    children,
  };
}

export type RenewalRating =
  | { rerated: true; annualPremium: string; worksheet: unknown; productVersionId: number; versionLabel: string }
  | { rerated: false; reason: string };

/** A refusal of the engine fails the transaction (a renewal is listed with the reason); the rest carry the premium. */
export class RatingRefused extends Error {}

/**
 * Rates risk data through lines: a renewal on the version in force at the renewal date (the new
 * term's first day), an endorsement on the version in force when its term began. `rerated: false`
 * says why it could not be (no engine, not a rating tree, a product lines does not have); a refusal
 * of the engine (a missing answer, no rate row) throws RatingRefused with its message.
 */
export async function rerate(
  rating: LinesRating | null,
  tx: Parameters<LinesRating['rate']>[0],
  values: {
    product: string;
    risks: unknown;
    ratingDate: string;
    /** The version to rate on (the term's, for an endorsement); else the one in force on ratingDate. */
    versionId?: string | null;
    termStart: string;
    termEnd: string;
    transactionType: 'renewal' | 'endorsement';
  },
): Promise<RenewalRating> {
  const kept = values.transactionType === 'renewal' ? 'The expiring premium was carried' : 'Not re-rated';
  if (!rating) return { rerated: false, reason: `${kept}: the rating engine (lines) is not installed.` };
  const risk = ratingTree(values.risks);
  if (!risk) {
    return {
      rerated: false,
      reason: `${kept}: the policy’s risk data is not a rating tree (it did not come from a quote).`,
    };
  }
  const outcome = await rating.rate(tx, {
    product: values.product,
    ratingDate: values.ratingDate,
    ...(values.versionId && /^\d+$/.test(values.versionId) ? { versionId: Number(values.versionId) } : {}),
    transactionType: values.transactionType,
    termStart: values.termStart,
    termEnd: values.termEnd,
    risk,
  });
  if (!outcome.ok && outcome.code === 'no_product') return { rerated: false, reason: `${kept}: ${outcome.message}` };
  if (!outcome.ok) throw new RatingRefused(`The ${values.transactionType} could not be re-rated: ${outcome.message}`);
  return {
    rerated: true,
    annualPremium: outcome.termPremium,
    worksheet: outcome.worksheet,
    productVersionId: outcome.versionId,
    versionLabel: outcome.versionLabel,
  };
}

/**
 * A risk of a rating tree named by a change path's first segment: `vehicle` (the first risk of that
 * type, root first) or `vehicle#12` (the risk with that id). Its answers object, to read or write.
 */
function answersOf(risks: unknown, selector: string): Record<string, unknown> | null {
  const [type, id] = selector.split('#');
  const queue: unknown[] = [risks];
  while (queue.length) {
    const node = record(queue.shift());
    if (!node) continue;
    const state = record(node.risk_state) ?? node;
    const nodeType = record(state.type)?.name ?? state.type;
    if (nodeType === type && (id === undefined || String(node.id) === id)) return record(state.field_answers);
    const children = Array.isArray(node.risk_quotes)
      ? node.risk_quotes
      : Array.isArray(node.children)
        ? node.children
        : [];
    queue.push(...children);
  }
  return null;
}

/** Whether a change path addresses a rating tree's answers (`type.field`, `type#id.field`). */
const treePath = (risks: unknown, path: string) => {
  const parts = path.split('.');
  return parts.length === 2 && ratingTree(risks) !== null ? parts : null;
};

/** The value a change path names: a tree risk's answer, else the nested key of flat risk data. */
export function valueAt(risks: unknown, path: string): unknown {
  const tree = treePath(risks, path);
  if (tree) return answersOf(risks, tree[0]!)?.[tree[1]!];
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      risks,
    );
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Applies changes to a copy of the risk data: on a rating tree `vehicle.usage` sets the answer of
 * the first vehicle (`vehicle#12.usage` that vehicle's); on flat risk data `dwelling.roof_type`
 * sets risks.dwelling.roof_type. null: a path names a risk type the tree does not have.
 */
export function applyChanges(
  risks: unknown,
  changes: Record<string, unknown>,
): { risks: unknown; missing: string | null } {
  const copy = structuredClone((risks ?? {}) as Record<string, unknown>);
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    if (keys.some((key) => FORBIDDEN.has(key) || key === '')) return { risks, missing: path };
    const tree = treePath(copy, path);
    if (tree) {
      const answers = answersOf(copy, tree[0]!);
      if (!answers) return { risks, missing: path };
      answers[tree[1]!] = value;
      continue;
    }
    let node = copy as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return { risks: copy, missing: null };
}
