import { ApiError } from '../http-problem.js';
import type {
  JsonApiDocument,
  PaginationLinks,
  RelationshipObject,
  ResourceIdentifier,
  ResourceObject,
} from './document.js';

/**
 * A resource definition maps a row of a module's own shape to a JSON:API resource object and knows
 * how to load its related rows for `include`. Every module that speaks JSON:API declares its
 * resources with `defineResource` and answers through `serializeDocument`; nothing else builds
 * resource objects by hand.
 */
export interface RelationshipDefinition<Row> {
  /** The related resource; a thunk so that two resources can refer to each other. */
  resource: () => ResourceDefinition<any>;
  many?: boolean;
  /** Ids of the related records as held by this row (null or [] when there are none). */
  ids: (row: Row) => string | string[] | null | undefined;
  /** Loads related rows by id for `include`; without it the relationship cannot be included. */
  load?: (ids: string[]) => Promise<unknown[]>;
}

export interface ResourceDefinition<Row> {
  type: string;
  id: (row: Row) => string;
  attributes: (row: Row) => Record<string, unknown>;
  relationships?: Record<string, RelationshipDefinition<Row>>;
  meta?: (row: Row) => Record<string, unknown> | undefined;
  /** Path of one record, used for `links.self` (e.g. `/api/claims/claims/`). */
  basePath?: string;
}

export function defineResource<Row>(definition: ResourceDefinition<Row>): ResourceDefinition<Row> {
  return definition;
}

/** An include tree: `include=exposures.reserves,tags` → { exposures: { reserves: {} }, tags: {} }. */
export type IncludeTree = { [relationship: string]: IncludeTree };

/** Parses and validates an `include` parameter against a resource's relationships (400 if unknown). */
export function parseInclude(value: string | undefined, resource: ResourceDefinition<any>): IncludeTree {
  const tree: IncludeTree = {};
  if (!value) return tree;
  for (const path of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    let node = tree;
    let current: ResourceDefinition<any> = resource;
    for (const name of path.split('.')) {
      const relationship = current.relationships?.[name];
      if (!relationship || !relationship.load) {
        throw new ApiError(400, `The relationship path '${path}' cannot be included.`, {
          source: { parameter: 'include' },
          code: 'invalid_include',
        });
      }
      node = node[name] ??= {};
      current = relationship.resource();
    }
  }
  return tree;
}

function identifiers(type: string, ids: string | string[] | null | undefined, many: boolean) {
  if (many) {
    const list = ids == null ? [] : Array.isArray(ids) ? ids : [ids];
    return list.map((id): ResourceIdentifier => ({ type, id: String(id) }));
  }
  if (ids == null || (Array.isArray(ids) && ids.length === 0)) return null;
  return { type, id: String(Array.isArray(ids) ? ids[0] : ids) };
}

export function toResourceObject<Row>(definition: ResourceDefinition<Row>, row: Row): ResourceObject {
  const id = definition.id(row);
  const resource: ResourceObject = { type: definition.type, id, attributes: definition.attributes(row) };
  if (definition.relationships) {
    const relationships: Record<string, RelationshipObject> = {};
    for (const [name, rel] of Object.entries(definition.relationships)) {
      relationships[name] = {
        data: identifiers(rel.resource().type, rel.ids(row), rel.many ?? false),
      };
      if (definition.basePath) {
        relationships[name].links = { self: `${definition.basePath}${id}/relationships/${name}` };
      }
    }
    resource.relationships = relationships;
  }
  if (definition.basePath) resource.links = { self: `${definition.basePath}${id}/` };
  const meta = definition.meta?.(row);
  if (meta) resource.meta = meta;
  return resource;
}

/** Loads included resources breadth-first, each (type, id) once, following the include tree. */
async function collectIncluded(
  definition: ResourceDefinition<any>,
  rows: unknown[],
  tree: IncludeTree,
  seen: Set<string>,
  out: ResourceObject[],
): Promise<void> {
  for (const [name, subtree] of Object.entries(tree)) {
    const rel = definition.relationships![name]!;
    const target = rel.resource();
    const ids = new Set<string>();
    for (const row of rows) {
      const value = rel.ids(row);
      for (const id of value == null ? [] : Array.isArray(value) ? value : [value]) ids.add(String(id));
    }
    if (ids.size === 0) continue;
    const related = await rel.load!([...ids]);
    for (const relatedRow of related) {
      const key = `${target.type}:${target.id(relatedRow)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(toResourceObject(target, relatedRow));
    }
    if (Object.keys(subtree).length > 0) await collectIncluded(target, related, subtree, seen, out);
  }
}

export interface SerializeOptions {
  include?: IncludeTree;
  links?: PaginationLinks;
  meta?: Record<string, unknown>;
}

export async function serializeDocument<Row>(
  definition: ResourceDefinition<Row>,
  data: Row | Row[] | null,
  options: SerializeOptions = {},
): Promise<JsonApiDocument> {
  const rows = data == null ? [] : Array.isArray(data) ? data : [data];
  const document: JsonApiDocument = {
    jsonapi: { version: '1.1' },
    data: Array.isArray(data)
      ? rows.map((row) => toResourceObject(definition, row))
      : data == null
        ? null
        : toResourceObject(definition, data),
  };
  if (options.include && Object.keys(options.include).length > 0) {
    const seen = new Set(rows.map((row) => `${definition.type}:${definition.id(row)}`));
    const included: ResourceObject[] = [];
    await collectIncluded(definition, rows, options.include, seen, included);
    document.included = included;
  }
  if (options.links) document.links = options.links;
  if (options.meta) document.meta = options.meta;
  return document;
}
