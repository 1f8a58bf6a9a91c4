/**
 * Filter panels ("Layout and navigation", "Validation rules"): definitions are checked (unique string
 * names and labels; type select, radio or form; options arrays with unique string names and labels)
 * and active values render as removable badges; date ranges read MM/DD/YYYY-MM/DD/YYYY.
 */

export type FilterType = 'select' | 'radio' | 'form';

export interface FilterOption {
  name: string;
  label: string;
}

export interface FilterDefinition {
  name: string;
  label: string;
  type: FilterType;
  /** Choices for select and radio filters; form filters may list their fields here. */
  options?: FilterOption[];
  /** How a form filter's value reads on its badge. Default 'text'. */
  format?: 'text' | 'date-range';
}

export interface DateRangeValue {
  /** `YYYY-MM-DD` (the spec's date format), an ISO timestamp, or a Date. */
  from?: string | Date | null;
  to?: string | Date | null;
}

export type FilterValue = string | string[] | DateRangeValue | null | undefined;
export type ActiveFilters = Record<string, FilterValue>;

export interface FilterBadge {
  /** Unique per badge: `<filter>` or `<filter>:<option>` for one option of a multi-select. */
  key: string;
  filter: string;
  /** The option this badge removes, for multi-value select filters. */
  option?: string;
  label: string;
  value: string;
}

const FILTER_TYPES: ReadonlySet<string> = new Set(['select', 'radio', 'form']);

/** Every problem in the definitions; empty when valid. */
export function validateFilterDefinitions(definitions: unknown): string[] {
  if (!Array.isArray(definitions)) return ['filter definitions must be an array'];
  const problems: string[] = [];
  const names = new Set<string>();
  const labels = new Set<string>();
  definitions.forEach((raw: unknown, index) => {
    const def = raw as Partial<FilterDefinition> | null;
    const where = `filter #${index + 1}`;
    if (typeof def !== 'object' || def === null) {
      problems.push(`${where} must be an object`);
      return;
    }
    if (typeof def.name !== 'string' || def.name === '') problems.push(`${where}: name must be a non-empty string`);
    else if (names.has(def.name)) problems.push(`${where}: duplicate name '${def.name}'`);
    else names.add(def.name);
    if (typeof def.label !== 'string' || def.label === '') problems.push(`${where}: label must be a non-empty string`);
    else if (labels.has(def.label)) problems.push(`${where}: duplicate label '${def.label}'`);
    else labels.add(def.label);
    if (typeof def.type !== 'string' || !FILTER_TYPES.has(def.type)) {
      problems.push(`${where}: type must be select, radio or form`);
    }
    if ((def.type === 'select' || def.type === 'radio') && def.options === undefined) {
      problems.push(`${where}: ${def.type} filters need options`);
    }
    if (def.options !== undefined) {
      if (!Array.isArray(def.options)) {
        problems.push(`${where}: options must be an array`);
      } else {
        const optionNames = new Set<string>();
        const optionLabels = new Set<string>();
        def.options.forEach((rawOption: unknown, optionIndex) => {
          const option = rawOption as Partial<FilterOption> | null;
          const at = `${where} option #${optionIndex + 1}`;
          if (typeof option !== 'object' || option === null) {
            problems.push(`${at} must be an object`);
            return;
          }
          if (typeof option.name !== 'string' || option.name === '')
            problems.push(`${at}: name must be a non-empty string`);
          else if (optionNames.has(option.name)) problems.push(`${at}: duplicate name '${option.name}'`);
          else optionNames.add(option.name);
          if (typeof option.label !== 'string' || option.label === '')
            problems.push(`${at}: label must be a non-empty string`);
          else if (optionLabels.has(option.label)) problems.push(`${at}: duplicate label '${option.label}'`);
          else optionLabels.add(option.label);
        });
      }
    }
  });
  return problems;
}

export class FilterDefinitionError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid filter definitions:\n- ${problems.join('\n- ')}`);
    this.name = 'FilterDefinitionError';
  }
}

export function assertFilterDefinitions(definitions: unknown): asserts definitions is FilterDefinition[] {
  const problems = validateFilterDefinitions(definitions);
  if (problems.length > 0) throw new FilterDefinitionError(problems);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `2024-03-05` → `03/05/2024`. Date-only strings are formatted as written (no time zone shift);
 * timestamps and Dates use local time, like the date pickers that produced them.
 */
export function formatFilterDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (match) return `${match[2]}/${match[3]}/${match[1]}`;
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()}`;
}

export function formatDateRange(range: DateRangeValue): string {
  return `${formatFilterDate(range.from)}-${formatFilterDate(range.to)}`;
}

const isDateRange = (value: FilterValue): value is DateRangeValue =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Badges for every active filter, in definition order; unknown or empty filters are skipped. */
export function formatFilterBadges(definitions: readonly FilterDefinition[], active: ActiveFilters): FilterBadge[] {
  const badges: FilterBadge[] = [];
  for (const def of definitions) {
    const value = active[def.name];
    if (value === undefined || value === null || value === '') continue;
    const optionLabel = (name: string) => def.options?.find((o) => o.name === name)?.label ?? name;
    if (Array.isArray(value)) {
      for (const option of value) {
        badges.push({
          key: `${def.name}:${option}`,
          filter: def.name,
          option,
          label: def.label,
          value: optionLabel(option),
        });
      }
    } else if (isDateRange(value)) {
      if (!value.from && !value.to) continue;
      badges.push({ key: def.name, filter: def.name, label: def.label, value: formatDateRange(value) });
    } else if (def.type === 'form' && def.format === 'date-range') {
      badges.push({ key: def.name, filter: def.name, label: def.label, value: String(value) });
    } else {
      badges.push({
        key: def.name,
        filter: def.name,
        label: def.label,
        value: def.type === 'form' ? value : optionLabel(value),
      });
    }
  }
  return badges;
}

/** The active filters without what `badge` stands for (one option, or the whole filter). */
export function removeFilterBadge(active: ActiveFilters, badge: FilterBadge): ActiveFilters {
  const next = { ...active };
  const value = next[badge.filter];
  if (badge.option !== undefined && Array.isArray(value)) {
    const rest = value.filter((v) => v !== badge.option);
    if (rest.length > 0) next[badge.filter] = rest;
    else delete next[badge.filter];
  } else {
    delete next[badge.filter];
  }
  return next;
}
