import { z } from '@atrium/sdk/server';

/**
 * The spec names list filters plainly (`status=open`); JSON:API clients send `filter[status]=open`.
 * Both spellings are accepted for every filter; `filter[claim]` is the JSON:API name of `claim_id`.
 */
export function filterShape(filters: Record<string, z.ZodType>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(filters)) {
    shape[name] = schema;
    shape[`filter[${name}]`] = schema;
    if (name === 'claim_id') shape['filter[claim]'] = schema;
  }
  return shape;
}

export function filterValue<T>(query: Record<string, unknown>, name: string): T | undefined {
  const value = query[name] ?? query[`filter[${name}]`] ?? (name === 'claim_id' ? query['filter[claim]'] : undefined);
  return value as T | undefined;
}
