import { Decimal, cents } from './premium.js';

/**
 * Premium explained across two revisions, factor by factor, from their rating worksheets
 * (docs/policies.md, "Compare revisions"): risks matched by path, calculations by name; for each
 * calculation its value in A and B and the difference, every input (answer, limit, deductible,
 * other calculation) whose value moved and every rate-table read whose value moved. The rated
 * premium is the worksheet's term premium (or its root premium); what the annual premium moved
 * beyond it was entered on an endorsement without re-rating, and is shown as such.
 */
interface Line {
  name: string;
  item?: string;
  skipped?: string;
  value?: string;
  inputs?: { kind: string; name: string; value: string }[];
  tables?: { table: string; keys?: Record<string, string>; value: string }[];
}
interface Risk {
  type?: string;
  path?: string;
  calculations?: Line[];
  premium?: string | null;
  children?: Risk[];
}
interface Sheet {
  term?: { termPremium?: string };
  root?: Risk;
}

export interface FactorMove {
  kind: string;
  name: string;
  from: string | null;
  to: string | null;
  change: string | null;
}

export interface CalculationComparison {
  /** The risk, as a person reads it: `Vehicle 2` (its type and its place among its siblings). */
  risk: string;
  calculation: string;
  item: string | null;
  from: string | null;
  to: string | null;
  change: string | null;
  /** Inputs and rate-table reads whose value moved. */
  factors: FactorMove[];
}

const numeric = (v: string | null | undefined) => v != null && /^-?\d+(\.\d+)?$/.test(v);
const difference = (from: string | null, to: string | null) =>
  numeric(from) || numeric(to) ? new Decimal(numeric(to) ? to! : 0).minus(numeric(from) ? from! : 0).toString() : null;
const titleCase = (name: string) => name.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** Every risk of a worksheet by path, with a readable label (type and ordinal among its siblings). */
function risksOf(sheet: Sheet | null): Map<string, { label: string; risk: Risk }> {
  const out = new Map<string, { label: string; risk: Risk }>();
  const visit = (risk: Risk, label: string) => {
    out.set(risk.path ?? label, { label, risk });
    const seen = new Map<string, number>();
    for (const child of risk.children ?? []) {
      const type = child.type ?? 'risk';
      const n = (seen.get(type) ?? 0) + 1;
      seen.set(type, n);
      const sameType = (risk.children ?? []).filter((c) => (c.type ?? 'risk') === type).length;
      visit(child, `${titleCase(type)}${sameType > 1 ? ` ${n}` : ''}`);
    }
  };
  if (sheet?.root) visit(sheet.root, titleCase(sheet.root.type ?? 'policy'));
  return out;
}

export function ratedPremium(sheet: Sheet | null): string | null {
  const term = sheet?.term?.termPremium;
  if (numeric(term)) return term!;
  const root = sheet?.root?.premium;
  return numeric(root) ? root! : null;
}

export function compareWorksheets(a: unknown, b: unknown): CalculationComparison[] {
  const from = risksOf(a as Sheet | null);
  const to = risksOf(b as Sheet | null);
  const out: CalculationComparison[] = [];
  for (const path of new Set([...from.keys(), ...to.keys()])) {
    const ra = from.get(path);
    const rb = to.get(path);
    const lines = (r?: { risk: Risk }) =>
      new Map((r?.risk.calculations ?? []).filter((l) => !l.skipped).map((l) => [l.name, l]));
    const la = lines(ra);
    const lb = lines(rb);
    for (const name of new Set([...la.keys(), ...lb.keys()])) {
      const x = la.get(name);
      const y = lb.get(name);
      const factors: FactorMove[] = [];
      const inputs = (l?: Line) => new Map((l?.inputs ?? []).map((i) => [`${i.kind}:${i.name}`, i]));
      const ia = inputs(x);
      const ib = inputs(y);
      for (const key of new Set([...ia.keys(), ...ib.keys()])) {
        const p = ia.get(key)?.value ?? null;
        const q = ib.get(key)?.value ?? null;
        const same = p === q || (numeric(p) && numeric(q) && new Decimal(p!).equals(q!));
        if (!same) {
          const input = (ia.get(key) ?? ib.get(key))!;
          factors.push({ kind: input.kind, name: input.name, from: p, to: q, change: difference(p, q) });
        }
      }
      const tables = (l?: Line) => new Map((l?.tables ?? []).map((t) => [t.table, t]));
      const ta = tables(x);
      const tb = tables(y);
      for (const table of new Set([...ta.keys(), ...tb.keys()])) {
        const p = ta.get(table)?.value ?? null;
        const q = tb.get(table)?.value ?? null;
        if (p !== q && !(numeric(p) && numeric(q) && new Decimal(p!).equals(q!))) {
          factors.push({ kind: 'table', name: table, from: p, to: q, change: difference(p, q) });
        }
      }
      const value = (l?: Line) => l?.value ?? null;
      out.push({
        risk: (ra ?? rb)!.label,
        calculation: name,
        item: x?.item ?? y?.item ?? null,
        from: value(x),
        to: value(y),
        change: difference(value(x), value(y)),
        factors,
      });
    }
  }
  return out;
}

/** The rated premium of each side, its change, and what the annual premium moved beyond it. */
export function premiumExplained(
  a: { worksheet: unknown; annualPremium: string },
  b: { worksheet: unknown; annualPremium: string },
) {
  const ratedFrom = ratedPremium(a.worksheet as Sheet | null);
  const ratedTo = ratedPremium(b.worksheet as Sheet | null);
  const annualChange = new Decimal(b.annualPremium).minus(a.annualPremium);
  const ratedChange = ratedFrom !== null && ratedTo !== null ? new Decimal(ratedTo).minus(ratedFrom) : new Decimal(0);
  return {
    rated_premium_from: ratedFrom,
    rated_premium_to: ratedTo,
    rated_premium_change: cents(ratedChange),
    /** Entered on an endorsement without re-rating: not explained by any worksheet. */
    not_rated_change: cents(annualChange.minus(ratedChange)),
  };
}
