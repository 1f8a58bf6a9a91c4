import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.js';

const compile = (schema: z.ZodType) =>
  responseSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as (data: unknown) => string;

describe('response serializer', () => {
  it('writes only declared properties, so internals never leak', () => {
    const serialize = compile(z.object({ name: z.string(), total: z.string() }));
    expect(JSON.parse(serialize({ name: 'CLM-1', total: '10.00', passwordHash: 'secret' }))).toEqual({
      name: 'CLM-1',
      total: '10.00',
    });
  });

  it('keeps nullable fields, nested arrays and unknown-typed values', () => {
    const serialize = compile(
      z.object({ website: z.string().nullable(), items: z.array(z.object({ id: z.number() })), data: z.unknown() }),
    );
    expect(JSON.parse(serialize({ website: null, items: [{ id: 1, extra: true }], data: { a: [1] } }))).toEqual({
      website: null,
      items: [{ id: 1 }],
      data: { a: [1] },
    });
  });

  it('refuses a reply missing a required property', () => {
    const serialize = compile(z.object({ status: z.string() }));
    expect(() => serialize({})).toThrow();
  });

  it('falls back to zod for what JSON Schema cannot express', () => {
    const serialize = compile(z.object({ at: z.date() }));
    expect(JSON.parse(serialize({ at: new Date('2026-01-02T03:04:05Z') }))).toEqual({ at: '2026-01-02T03:04:05.000Z' });
  });
});
