import {
  Decimal,
  diffWorksheets,
  type ProductDefinition,
  type Worksheet,
  type WorksheetLine,
  type WorksheetRisk,
} from '@atrium/rating';
import type { RatingChange, RatingDifference } from '../shared/rating-difference.js';

export type { RatingChange, RatingDifference };

export interface RatedSnapshot {
  premium: string | null;
  worksheet: unknown;
  ratedAt: Date | null;
}

const isPremium = (line: WorksheetLine) => line.name === 'premium' || line.name.endsWith('_premium') || !!line.item;

const asWorksheet = (value: unknown): Worksheet | null =>
  value && typeof value === 'object' && 'root' in value && 'term' in value ? (value as Worksheet) : null;

const sub = (after: string | null, before: string | null) =>
  new Decimal(after ?? '0').minus(new Decimal(before ?? '0')).toFixed(2);

const humanise = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Labels of risk types and calculations from the product definition (names when it has none). */
function labeller(definition: ProductDefinition | null) {
  // The lines module's definitions carry labels beside what the engine reads.
  type Labelled = { name: string; label?: string; calculations?: { name: string; label?: string }[] };
  const types = new Map(((definition?.riskTypes ?? []) as Labelled[]).map((t) => [t.name, t]));
  return {
    type: (name: string) => types.get(name)?.label ?? humanise(name),
    calculation: (type: string, name: string) =>
      types.get(type)?.calculations?.find((c) => c.name === name)?.label ?? humanise(name),
  };
}

/** Risks by path, with a reader's label (`Scheduled article 2`: the n-th of its type under its parent). */
function risksOf(worksheet: Worksheet | null, labels: ReturnType<typeof labeller>) {
  const out = new Map<string, { risk: WorksheetRisk; label: string }>();
  if (!worksheet) return out;
  const walk = (risk: WorksheetRisk, label: string) => {
    out.set(risk.path, { risk, label });
    const counts = new Map<string, number>();
    for (const child of risk.children) {
      const n = (counts.get(child.type) ?? 0) + 1;
      counts.set(child.type, n);
      walk(child, `${labels.type(child.type)} ${n}`);
    }
  };
  walk(worksheet.root, labels.type(worksheet.root.type));
  return out;
}

/**
 * The difference between two ratings of a quote, as the re-rate shows it: premium before and after,
 * each premium calculation per risk (coverages), the other calculations whose value moved, and the
 * inputs that moved them (answers, limits, rate-table reads, from `diffWorksheets`).
 */
export function ratingDifference(
  previous: RatedSnapshot,
  current: RatedSnapshot,
  definition: ProductDefinition | null,
): RatingDifference {
  const labels = labeller(definition);
  const before = asWorksheet(previous.worksheet);
  const after = asWorksheet(current.worksheet);
  const snapshot = (s: RatedSnapshot) =>
    s.premium === null ? null : { premium: s.premium, rated_at: s.ratedAt?.toISOString() ?? null };
  const out: RatingDifference = {
    previous: before ? snapshot(previous) : null,
    current: after ? snapshot(current) : null,
    premium_change: before && after ? sub(current.premium, previous.premium) : null,
    coverages: [],
    factors: [],
    inputs: [],
  };
  if (!before || !after) return out;
  const beforeRisks = risksOf(before, labels);
  const afterRisks = risksOf(after, labels);
  const paths = [...new Set([...afterRisks.keys(), ...beforeRisks.keys()])];
  for (const path of paths) {
    const b = beforeRisks.get(path);
    const a = afterRisks.get(path);
    const type = (a ?? b)!.risk.type;
    const lines = (r: WorksheetRisk | undefined) =>
      new Map((r ? [...r.computedFields, ...r.calculations] : []).map((l) => [l.name, l]));
    const bl = lines(b?.risk);
    const al = lines(a?.risk);
    for (const name of new Set([...al.keys(), ...bl.keys()])) {
      const line = (al.get(name) ?? bl.get(name))!;
      const value = (l: WorksheetLine | undefined) => (l && !l.skipped ? l.value : null);
      const change: RatingChange = {
        risk: path,
        risk_label: (a ?? b)!.label,
        name,
        label: labels.calculation(type, name),
        before: value(bl.get(name)),
        after: value(al.get(name)),
        change: '0.00',
      };
      const numeric = [change.before, change.after].every((v) => v === null || /^-?\d+(\.\d+)?$/.test(v));
      if (isPremium(line)) {
        change.change = numeric ? sub(change.after, change.before) : '0.00';
        out.coverages.push(change);
      } else if (change.before !== change.after && !(numeric && sameNumber(change.before, change.after))) {
        change.change = numeric
          ? new Decimal(change.after ?? '0').minus(new Decimal(change.before ?? '0')).toString()
          : '';
        out.factors.push(change);
      }
    }
  }
  out.inputs = diffWorksheets(before, after)
    .filter((d) => d.kind === 'input' || d.kind === 'table' || d.kind === 'risk_added' || d.kind === 'risk_missing')
    .map((d) => d.message);
  return out;
}

function sameNumber(a: string | null, b: string | null) {
  return a !== null && b !== null && new Decimal(a).equals(new Decimal(b));
}

/** Whether a new rating differs from the one kept (then the kept one becomes the previous rating). */
export function ratingChanged(kept: RatedSnapshot, fresh: RatedSnapshot): boolean {
  const before = asWorksheet(kept.worksheet);
  const after = asWorksheet(fresh.worksheet);
  if (!before || !after) return !!after;
  return !sameNumber(kept.premium, fresh.premium) || diffWorksheets(before, after).length > 0;
}
