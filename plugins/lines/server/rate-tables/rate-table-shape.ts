import type { KeyCell, RateTableRow } from '@atrium/rating';

/** One key column of a rate table as the API and the files describe it. */
export interface KeyColumn {
  name: string;
  match: 'exact' | 'range';
}

/** The parts of a rate table the rows are read, validated and written against. */
export interface RateTableShape {
  name: string;
  keys: KeyColumn[];
  /** A numeric exact key column interpolated between rows (see docs/lines-rate-tables.md). */
  interpolate?: string | null;
  default?: string | null;
}

/** A row as stored and served: key cells by key name (a range key holds `{ from, to }`) and the value. */
export interface TableRow {
  keys: Record<string, KeyCell>;
  value: string;
}

export type { RateTableRow };
