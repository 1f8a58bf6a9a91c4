import type { z } from 'zod';

/**
 * The half of a resource declaration that both halves of a module share: its JSON:API type, where it
 * lives, which document style it answers in, its attributes (zod, the writable ones as a create takes
 * them), relationships, filters, orderings and page size. It imports nothing but zod's types, so the
 * web half derives its typed client from it (`resourceClient`) without pulling the server in; the
 * server half (`declareResource` in `@atrium/sdk/server`) adds the table, permission, record scope
 * and hooks. docs/plugins.md, "A resource in one declaration".
 */

/** `jsonapi`: JSON:API 1.1 documents; `plain`: `{ count, next, previous, results }` and plain bodies. */
export type DocumentStyle = 'jsonapi' | 'plain';

/** `search`: the rows one of whose `columns` contains the text, in any case (blank: every row). */
export type FilterKind = 'integer' | 'text' | 'boolean' | 'search';

export interface FilterShape {
  kind: FilterKind;
  /** The column key it compares with (the server half's table); defaults to the camelCase of the name. */
  column?: string;
  /** Other query names that mean the same (JSON:API's `filter[claim]` for `claim_id`). */
  aliases?: readonly string[];
  /** boolean filters: `true` keeps the rows whose column is false (an `active` filter on `expired`). */
  negate?: boolean;
  /** search filters: the column keys searched; defaults to `[column]`. */
  columns?: readonly string[];
  /** The query value's schema in place of the kind's (an enum answering in its own words). */
  schema?: z.ZodType;
  /** A blank value filters nothing, as if absent (lists that always read it so). */
  blankIsAbsent?: boolean;
}

export interface RelationshipShape {
  /** The related resource's JSON:API type. */
  type: string;
  /** The column key holding the related id (to-one); defaults to the camelCase of `<name>_id`. */
  column?: string;
  /** A create must name it. */
  required?: boolean;
}

export interface ResourceShape {
  /** JSON:API type (also the noun of messages: `party 7 not found.`). */
  type: string;
  /** The collection's path below `/api`, with its trailing slash: `/claims/parties/`. */
  path: string;
  style: DocumentStyle;
  /** Writable attributes as a create must send them (optional ones `.optional()`); a change takes any subset. */
  attributes: Record<string, z.ZodType>;
  /** Attributes written but never shown (secrets). */
  writeOnly?: readonly string[];
  /** Attributes shown but never written; everything the table holds that is not in `attributes` is read-only anyway. */
  readOnly?: readonly string[];
  /** To-one relationships by name. */
  relationships?: Record<string, RelationshipShape>;
  filters?: Record<string, FilterShape>;
  /**
   * Orderings a list accepts (`sort=-id` / `ordering=-id`); the first is the default, descending when
   * written with a leading '-' (`['-id']`: newest first). Defaults to `['id']`.
   */
  orderings?: readonly string[];
  /** Default page size (`page[size]` / `page_size`). */
  pageSize?: number;
  /** Largest page a caller may ask for; defaults to max(pageSize, 1000). */
  maxPageSize?: number;
  /**
   * A list answers every row at once, `{ count, results }` (plain style; a collection small by nature,
   * such as lines of business): no paging keys are accepted or sent.
   */
  unpaged?: boolean;
  /** Only list and find (reference data the module itself maintains elsewhere). */
  readOnlyResource?: boolean;
}

/** Declares the shared half; `const` keeps the literal names so that clients are typed by them. */
export function defineResourceShape<const S extends ResourceShape>(shape: S): S {
  if (!shape.path.startsWith('/') || !shape.path.endsWith('/')) {
    throw new Error(`Resource ${shape.type}: path '${shape.path}' must start and end with '/'.`);
  }
  if (shape.unpaged && shape.style !== 'plain') {
    throw new Error(`Resource ${shape.type}: only a plain-style list can be unpaged.`);
  }
  return shape;
}

export const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The query names a filter answers to: its name, `filter[name]` and its aliases. */
export function filterNames(name: string, filter: FilterShape): string[] {
  return [name, `filter[${name}]`, ...(filter.aliases ?? [])];
}

export const defaultPageSize = (shape: ResourceShape) => shape.pageSize ?? (shape.style === 'plain' ? 100 : 250);
export const orderingsOf = (shape: ResourceShape): readonly string[] => shape.orderings ?? ['id'];

/** The attribute values of a create for this shape (what the web half's forms build). */
export type CreateAttributes<S extends ResourceShape> = {
  [K in keyof S['attributes']]?: z.input<S['attributes'][K]>;
};
