import { z } from 'zod';

/**
 * Zod schemas for JSON:API request documents. Attributes are strict: an unknown field is a 400 whose
 * pointer is `/data/attributes/<field>`. A wrong `type` is answered 409 by the error mapper, as
 * JSON:API 1.1 asks.
 */
const identifier = (type: string) => z.strictObject({ type: z.literal(type), id: z.string().min(1) });

export function toOneRelationship(type: string, nullable = true) {
  const data = nullable ? identifier(type).nullable() : identifier(type);
  return z.strictObject({ data });
}

export function toManyRelationship(type: string) {
  return z.strictObject({ data: z.array(identifier(type)) });
}

interface ResourceBodyOptions<R extends z.ZodRawShape> {
  /** `required` for PATCH (id must match the URL), `optional` for POST with client ids, `forbidden` otherwise. */
  id?: 'required' | 'optional' | 'forbidden';
  relationships?: R;
}

export function resourceDocument<A extends z.ZodRawShape, R extends z.ZodRawShape = {}>(
  type: string,
  attributes: A,
  options: ResourceBodyOptions<R> = {},
) {
  const id =
    options.id === 'required'
      ? z.string().min(1)
      : options.id === 'optional'
        ? z.string().min(1).optional()
        : z.never({ error: 'A client-generated id is not allowed here.' }).optional();
  return z.strictObject({
    data: z.strictObject({
      type: z.literal(type),
      id,
      attributes: z.strictObject(attributes).optional(),
      relationships: z.strictObject(options.relationships ?? ({} as R)).optional(),
    }),
  });
}

/** The body of `PATCH/POST/DELETE …/relationships/<name>` for a to-many relationship. */
export function relationshipDocument(type: string) {
  return toManyRelationship(type);
}
