import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createServiceRef,
  defineEvent,
  defineServerPlugin,
  emitEvent,
  provideService,
  z,
  type AccessEvaluator,
  type Authenticator,
  type Queryable,
} from '@atrium/sdk/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * Events and services between plugins through a real server on a real database: a provider plugin
 * (`counter`) offers a service that emits an event in the caller's transaction; a consumer plugin
 * (`notebook`) calls it from a route and may fail afterwards, which must take the event with it.
 */
const counted = defineEvent({
  topic: 'counter.tally.counted',
  version: '1.0.0',
  description: 'A tally was counted.',
  data: z.object({ name: z.string().min(1), amount: z.string().regex(/^\d+\.\d{2}$/) }),
});
const neverDeclared = defineEvent({
  topic: 'counter.tally.reset',
  version: '1.0.0',
  description: 'Not in any plugin.',
  data: z.object({}),
});

const tally = createServiceRef<{
  count(tx: Queryable, input: { name: string; amount: string; by: string }): Promise<string>;
}>('counter.tally');

const counter = defineServerPlugin({
  id: 'counter',
  events: [counted],
  provides: {
    services: [
      provideService(tally, () => ({
        async count(tx, input) {
          const event = await emitEvent(
            tx,
            counted,
            { name: input.name, amount: input.amount },
            { triggeringUser: input.by },
          );
          return event.event_id;
        },
      })),
    ],
  },
});

const notebook = defineServerPlugin({
  id: 'notebook',
  deps: [tally],
  permissions: [{ resource: 'notebook:page', action: 'create', description: 'Write a page.' }],
  routes(router, context) {
    router.post(
      '/pages',
      {
        config: { access: { resource: 'notebook:page', action: 'create' } },
        schema: { body: z.strictObject({ name: z.string(), amount: z.string(), fail: z.boolean().default(false) }) },
      },
      async (request, reply) => {
        const { name, amount, fail } = request.body;
        const eventId = await context.db.transaction(async (tx) => {
          const id = await context.service(tally).count(tx, { name, amount, by: request.principal.username });
          if (fail) throw new ApiError(409, 'The page was refused after counting.');
          return id;
        });
        return reply.status(201).send({ event_id: eventId });
      },
    );
  },
});

// The platform is under test, not identity: a bearer token names the caller, who may do anything.
const authenticator: Authenticator = {
  async authenticate(request) {
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
    const username = header.slice('Bearer '.length);
    return { kind: 'user', subject: username, username, effectiveRole: 'Tester', roles: ['Tester'] };
  },
};
const evaluator: AccessEvaluator = { evaluate: () => ({ allowed: true }) };

describe('events and services between plugins', () => {
  let server: TestServer;
  const outbox = async () =>
    (
      await server.atrium.database.pool.query(
        `select event_id, event_date, schema_id, version, topic, triggering_user, data
           from core.event_outbox where topic like 'counter.%' order by id`,
      )
    ).rows as Record<string, unknown>[];
  const post = (body: unknown) =>
    server.fetch('/api/notebook/pages', {
      method: 'POST',
      headers: { authorization: 'Bearer ann@atrium.test', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startTestServer({
      plugins: [notebook, counter],
      seed: 'never',
      access: { authenticator, evaluator },
    });
  });
  afterAll(() => server?.close());

  it("writes the event in the caller's transaction with the envelope", async () => {
    const response = await post({ name: 'claims', amount: '12.50' });
    expect(response.status).toBe(201);
    const { event_id } = (await response.json()) as { event_id: string };
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id,
      schema_id: 'counter.tally.counted',
      version: '1.0.0',
      topic: 'counter.tally.counted',
      triggering_user: 'ann@atrium.test',
      data: { name: 'claims', amount: '12.50' },
    });
    expect(rows[0]!.event_date).toBeInstanceOf(Date);
  });

  it("rolls the event back with the caller's transaction", async () => {
    const before = (await outbox()).length;
    const response = await post({ name: 'refused', amount: '1.00', fail: true });
    expect(response.status).toBe(409);
    expect(await outbox()).toHaveLength(before);
  });

  it('refuses data that fails the schema, and the write with it', async () => {
    const before = (await outbox()).length;
    const response = await post({ name: 'claims', amount: '12.5' });
    expect(response.status).toBe(500);
    expect(await outbox()).toHaveLength(before);
    await expect(
      emitEvent(server.atrium.database.db, counted, { name: '', amount: '1.00' }, { triggeringUser: 'x' }),
    ).rejects.toThrow("Event 'counter.tally.counted' data does not match schema 'counter.tally.counted' 1.0.0: name:");
  });

  it('refuses a topic no installed plugin declares', async () => {
    await expect(emitEvent(server.atrium.database.db, neverDeclared, {}, { triggeringUser: 'x' })).rejects.toThrow(
      "Event 'counter.tally.reset' (1.0.0) is not declared by an installed plugin's events.",
    );
  });

  it('lists the topic catalogue with the JSON Schema of each version', async () => {
    const response = await server.fetch('/api/event-catalogue', { headers: { authorization: 'Bearer ann' } });
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: { topic: string; json_schema: any }[] };
    const entry = results.find((r) => r.topic === 'counter.tally.counted');
    expect(entry).toMatchObject({ schema_id: 'counter.tally.counted', version: '1.0.0', plugin: 'counter' });
    expect(entry!.json_schema).toMatchObject({
      type: 'object',
      required: ['name', 'amount'],
      properties: { name: { type: 'string', minLength: 1 } },
    });
  });

  it('refuses to start when a plugin needs a service no installed plugin provides', async () => {
    await expect(startTestServer({ plugins: [notebook], seed: 'never' })).rejects.toThrow(
      "Server plugin 'notebook' needs the service 'counter.tally', which no installed plugin provides.",
    );
  });

  it('refuses an event declared outside the plugin’s category', () => {
    const stray = defineServerPlugin({ id: 'stray', events: [counted] });
    return expect(startTestServer({ plugins: [stray], seed: 'never' })).rejects.toThrow(
      "plugin 'stray' declares event 'counter.tally.counted' outside its category 'stray.*'",
    );
  });
});
