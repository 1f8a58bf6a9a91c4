import type { FastifyRequest } from 'fastify';
import type { Permission } from '../access.js';
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
  /**
   * Loads related rows by id for `include`; without it the relationship cannot be included. It gets
   * the request so that it can keep only the rows the caller may read (the related type's record scope).
   */
  load?: (ids: string[], request?: FastifyRequest) => Promise<unknown[]>;
}

export interface ResourceDefinition<Row> {
  type: string;
  id: (row: Row) => string;
  attributes: (row: Row) => Record<string, unknown>;
  relationships?: Record<string, RelationshipDefinition<Row>>;
  meta?: (row: Row) => Record<string, unknown> | undefined;
  /** Path of one record, used for `links.self` (e.g. `/api/claims/claims/`). */
  basePath?: string;
  /**
   * The permission to read this type. Included as a related resource it appears only for callers the
   * evaluator allows it (SerializeOptions.access); a caller without it gets the identifiers, not the
   * resources — as if they had asked for the type's own route.
   */
  readPermission?: Permission;
}

/** Who is asking, for `include`: each included type is checked with its own read permission. */
export interface IncludeAccess {
  request: FastifyRequest;
  allows(permission: Permission): Promise<boolean>;
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
  access: IncludeAccess | undefined,
): Promise<void> {
  for (const [name, subtree] of Object.entries(tree)) {
    const rel = definition.relationships![name]!;
    const target = rel.resource();
    // Fail closed: a type that declares its read permission is never included without asking.
    if (target.readPermission && !(access && (await access.allows(target.readPermission)))) continue;
    const ids = new Set<string>();
    for (const row of rows) {
      const value = rel.ids(row);
      for (const id of value == null ? [] : Array.isArray(value) ? value : [value]) ids.add(String(id));
    }
    if (ids.size === 0) continue;
    const related = await rel.load!([...ids], access?.request);
    for (const relatedRow of related) {
      const key = `${target.type}:${target.id(relatedRow)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(toResourceObject(target, relatedRow));
    }
    if (Object.keys(subtree).length > 0) await collectIncluded(target, related, subtree, seen, out, access);
  }
}

export interface SerializeOptions {
  include?: IncludeTree;
  /** Needed to include types that declare a readPermission (see includeAccess in resource/). */
  access?: IncludeAccess;
  /** Sparse fieldsets: `fields[type]=a,b` → { type: Set(a, b) }; other types keep every field. */
  fields?: Record<string, Set<string>>;
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
    await collectIncluded(definition, rows, options.include, seen, included, options.access);
    document.included = included;
  }
  if (options.fields) {
    const objects = [...(Array.isArray(document.data) ? document.data : document.data ? [document.data] : [])];
    for (const object of [...objects, ...(document.included ?? [])]) sparse(object, options.fields);
  }
  if (options.links) document.links = options.links;
  if (options.meta) document.meta = options.meta;
  return document;
}

/** Keeps only the listed attributes and relationships of an object whose type has a fieldset. */
function sparse(object: ResourceObject, fields: Record<string, Set<string>>): void {
  const keep = fields[object.type];
  if (!keep) return;
  if (object.attributes) {
    object.attributes = Object.fromEntries(Object.entries(object.attributes).filter(([key]) => keep.has(key)));
  }
  if (object.relationships) {
    object.relationships = Object.fromEntries(Object.entries(object.relationships).filter(([key]) => keep.has(key)));
  }
}
