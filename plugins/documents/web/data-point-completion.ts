import type { DataPoint } from '../shared/data-points.js';

/**
 * Completion of data points in Typst template source (docs/documents.md, "Screens"): after `data.`
 * (`#data.policy.`, `data.policy.coverages` …) the next path segments the catalogue knows. Pure, so
 * it is tested without Monaco; the editor turns the answers into Monaco's suggestions.
 */
export interface DataPointCompletion {
  /** The segment to insert (`premium`, `insured`). */
  label: string;
  /** The full catalogue path it completes (`policy.insured` for a group). */
  path: string;
  /** `money · 1284.50 · from policies`, or `group` for a path with fields below it. */
  detail: string;
  /** True when it has fields below it (a group or a list). */
  group: boolean;
  /** Where the word being completed starts (1-based column in the line). */
  startColumn: number;
}

/** The data-point completions at the end of `before` (the line's text up to the cursor). */
export function dataPointCompletions(before: string, points: readonly DataPoint[]): DataPointCompletion[] {
  const match = /(?:^|[^\w.])data((?:\.[A-Za-z_][\w-]*)*)\.([A-Za-z_][\w-]*)?$/.exec(before);
  if (!match) return [];
  const parents = (match[1] ?? '').split('.').filter(Boolean);
  const partial = match[2] ?? '';
  const startColumn = before.length - partial.length + 1;
  const seen = new Map<string, DataPointCompletion>();
  for (const point of points) {
    // A list's element fields (`policy.coverages[].limit`) complete after the list's own name.
    const segments = point.path.replace(/\[\]/g, '').split('.');
    if (segments.length <= parents.length) continue;
    if (parents.some((segment, i) => segments[i] !== segment)) continue;
    const label = segments[parents.length]!;
    if (!label.startsWith(partial)) continue;
    const leaf = segments.length === parents.length + 1;
    const path = segments.slice(0, parents.length + 1).join('.');
    const existing = seen.get(label);
    if (leaf) {
      seen.set(label, {
        label,
        path,
        detail: `${point.type} · ${point.sample_value} · from ${point.source_module}`,
        group: point.type === 'list' || existing?.group === true,
        startColumn,
      });
    } else if (!existing) {
      seen.set(label, { label, path, detail: 'group', group: true, startColumn });
    } else {
      existing.group = true;
    }
  }
  return [...seen.values()].sort((a, b) => a.label.localeCompare(b.label));
}
