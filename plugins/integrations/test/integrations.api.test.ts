import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type Caller, type TestServer } from '@atrium/sdk/testing';

/**
 * Webhooks end to end on a real server: a receiver this test starts on 127.0.0.1 (allowed by
 * ATRIUM_WEBHOOKS_ALLOW_PRIVATE), a claim created through the claims API, the signature verified
 * with `standardwebhooks`, retries on a short schedule, the exceptions queue and its Retry.
 */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

function startReceiver() {
  const received: Received[] = [];
  let answer = 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = answer;
      response.end(answer === 200 ? 'ok' : 'receiver is down');
    });
  });
  return new Promise<{
    url: string;
    received: Received[];
    answer: (status: number) => void;
    close: () => Promise<void>;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hooks`,
        received,
        answer: (status) => (answer = status),
        close: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const doc = (attributes: Record<string, unknown>, id?: string) => ({
  data: { type: 'subscription', ...(id ? { id } : {}), attributes },
});

let server: TestServer;
let admin: Caller;
let plainAdmin: Caller;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE = 'true';
  process.env.ATRIUM_WEBHOOKS_RETRY_SCHEDULE = '0.2,0.2';
  process.env.ATRIUM_WEBHOOKS_POLL_MS = '100';
  receiver = await startReceiver();
  server = await startTestServer();
  admin = await as(server, 'admin@atrium.test', { base: '/api', mediaType: 'jsonapi' });
  plainAdmin = await as(server, 'admin@atrium.test', { base: '/api' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  process.env = saved;
});

async function subscribe(events: string[]): Promise<{ id: string; secret: string }> {
  const created = await admin.post('/events/subscriptions', doc({ url: receiver.url, events }));
  expect(created.status).toBe(202);
  const body = await created.json();
  expect(body.data.attributes.status).toBe('pending');
  expect(body.meta.secret).toMatch(/^whsec_/);
  await until('activation', async () => {
    const one = await (await admin.get(`/events/subscriptions/${body.data.id}`)).json();
    return one.data.attributes.status === 'active';
  });
  return { id: body.data.id, secret: body.meta.secret };
}

const createClaim = async () => {
  const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' });
  const response = await adjuster.post('/claims/', {
    data: { type: 'claim', attributes: { loss_description: 'Burst pipe' } },
  });
  expect(response.status).toBe(201);
  return (await response.json()).data;
};

describe('events', () => {
  it('lists the outbox as envelopes and the catalogue with JSON Schemas', async () => {
    const claim = await createClaim();
    const outbox = await (await plainAdmin.get('/events/outbox?module=claims')).json();
    const event = outbox.results.find((e: { data: { claim_id: string } }) => e.data.claim_id === String(claim.id));
    expect(Object.keys(event)).toEqual([
      'position',
      'event_id',
      'event_date',
      'schema_id',
      'version',
      'topic',
      'triggering_user',
      'data',
    ]);
    expect(event).toMatchObject({
      topic: 'claims.claim.created',
      schema_id: 'claims.claim',
      triggering_user: 'adjuster@atrium.test',
    });
    const catalogue = await (await plainAdmin.get('/events/catalogue')).json();
    expect(catalogue.results.map((e: { topic: string }) => e.topic)).toContain('claims.claim.created');
    const schema = await (await plainAdmin.get('/events/schemas/claims.claim/1.0.0')).json();
    expect(schema.json_schema.properties).toHaveProperty('claim_number');
    expect((await plainAdmin.get('/events/schemas/claims.claim/9.9.9')).status).toBe(404);
  });

  it('carries the lines module’s product-version events', async () => {
    const author = await as(server, 'author@atrium.test', { base: '/api/lines' });
    const created = await author.post('/products/', { name: 'integrations-condo', line_id: 1 });
    expect(created.status).toBe(201);
    const product = await created.json();
    const v1 = product.versions[0];
    const published = await author.patch(`/products/${product.id}/versions/${v1.id}/status/`, { status: 'published' });
    expect(published.status, await published.clone().text()).toBe(200);
    await author.patch(`/products/${product.id}/versions/${v1.id}/status/`, { status: 'retired' });
    const outbox = await (await plainAdmin.get('/events/outbox?module=lines')).json();
    const mine = outbox.results.filter(
      (e: { data: { product_id: string } }) => e.data.product_id === String(product.id),
    );
    expect(mine.map((e: { topic: string }) => e.topic)).toEqual([
      'lines.product-version.retired',
      'lines.product-version.published',
    ]);
    expect(mine[1]).toMatchObject({
      schema_id: 'lines.product-version',
      triggering_user: 'author@atrium.test',
      data: { version_number: 1, status: 'published' },
    });
  });

  it('is for administrators only', async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api', mediaType: 'jsonapi' });
    expect((await adjuster.get('/events/subscriptions')).status).toBe(403);
    expect((await adjuster.post('/events/subscriptions', doc({ url: receiver.url, events: ['*'] }))).status).toBe(403);
    const plain = await as(server, 'adjuster@atrium.test', { base: '/api' });
    expect((await plain.get('/events/outbox')).status).toBe(403);
    expect((await plain.get('/integrations/exceptions')).status).toBe(403);
  });
});

describe('subscriptions', () => {
  it('refuses private targets unless allowed, bad URLs and empty events with clear messages', async () => {
    const bad = await admin.post('/events/subscriptions', doc({ url: 'ftp://example.com', events: ['claims'] }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0]).toMatchObject({
      detail: 'The URL must start with https:// or http://.',
      source: { pointer: '/data/attributes/url' },
    });
    const none = await admin.post('/events/subscriptions', doc({ url: receiver.url, events: [] }));
    expect(none.status).toBe(400);
  });

  it('delivers a claim event signed per Standard Webhooks', async () => {
    const { id, secret } = await subscribe(['claims']);
    const claim = await createClaim();
    const delivery = await until('the webhook', async () =>
      receiver.received.find(
        (r) => r.body.includes(`"claim_id":"${claim.id}"`) || r.body.includes(`"claim_id": "${claim.id}"`),
      ),
    );
    const payload = new Webhook(secret).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual([
      'event_id',
      'event_date',
      'schema_id',
      'version',
      'topic',
      'triggering_user',
      'data',
    ]);
    expect(payload).toMatchObject({ topic: 'claims.claim.created', triggering_user: 'adjuster@atrium.test' });
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret of 24 byte').toString('base64')}`).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }),
    ).toThrow();
    const log = await until('the message log', async () => {
      const messages = await (await admin.get(`/events/subscriptions/${id}/messages`)).json();
      const m = messages.data.find((x: { attributes: { status: string } }) => x.attributes.status === 'succeeded');
      return m;
    });
    expect(log.attributes.attempt_log[0]).toMatchObject({
      attempt: 1,
      status_code: 200,
      succeeded: true,
      response_excerpt: 'ok',
    });
    expect(log.attributes.attempt_log[0].latency_ms).toBeGreaterThanOrEqual(0);
    // Secret rotation: two signatures, each verifies with its own secret.
    const rotated = await (await admin.post(`/events/subscriptions/${id}/rotate-secret`, {})).json();
    const before = receiver.received.length;
    expect((await admin.post(`/events/subscriptions/${id}/test`, {})).status).toBe(202);
    const test = await until('the test event', async () =>
      receiver.received.slice(before).find((r) => r.body.includes('integrations.webhook.tested')),
    );
    const headers = {
      'webhook-id': String(test.headers['webhook-id']),
      'webhook-timestamp': String(test.headers['webhook-timestamp']),
      'webhook-signature': String(test.headers['webhook-signature']),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(test.body, headers)).toBeTruthy();
    expect(new Webhook(rotated.meta.secret).verify(test.body, headers)).toBeTruthy();
    const del = await admin.delete(`/events/subscriptions/${id}`);
    expect(del.status).toBe(204);
    expect((await admin.get(`/events/subscriptions/${id}`)).status).toBe(404);
  });

  it('retries a failing receiver, files an exception, and Retry there delivers', async () => {
    const { id } = await subscribe(['claims.claim']);
    receiver.answer(500);
    const claim = await createClaim();
    const failed = await until('the exception', async () => {
      const list = await (await plainAdmin.get('/integrations/exceptions?module=integrations')).json();
      return list.results.find((e: { payload: { subscription_id: string } }) => e.payload.subscription_id === id);
    });
    expect(failed).toMatchObject({
      module: 'integrations',
      kind: 'webhook-delivery',
      attempts: 3,
      status: 'open',
      retryable: true,
    });
    expect(failed.reason).toContain('answered 500 on all 3 attempts');
    expect(JSON.stringify(failed.payload.event)).toContain(String(claim.id));
    const messages = await (await admin.get(`/events/subscriptions/${id}/messages`)).json();
    const log = messages.data[0].attributes.attempt_log;
    expect(log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 500]);
    expect(log[0].next_retry_at).not.toBeNull();
    expect(log[2].next_retry_at).toBeNull();
    expect(messages.data[0].attributes.status).toBe('failed');

    receiver.answer(200);
    const retried = await plainAdmin.post(`/integrations/exceptions/${failed.id}/retry`, {});
    expect(retried.status).toBe(200);
    await until('the resolved exception', async () => {
      const one = await (await plainAdmin.get(`/integrations/exceptions/${failed.id}`)).json();
      return one.status === 'resolved';
    });
    const after = await (await admin.get(`/events/subscriptions/${id}/messages`)).json();
    expect(after.data[0].attributes.status).toBe('succeeded');
    expect(after.data[0].attributes.attempt_log.at(-1)).toMatchObject({ status_code: 200, attempt: 4 });

    const again = await plainAdmin.post(`/integrations/exceptions/${failed.id}/dismiss`, { reason: 'x' });
    expect(again.status).toBe(409);
  });

  it('disables the endpoint on 410 and dismisses exceptions with a reason', async () => {
    const { id } = await subscribe(['claims']);
    receiver.answer(410);
    await createClaim();
    await until('disabled', async () => {
      const one = await (await admin.get(`/events/subscriptions/${id}`)).json();
      return one.data.attributes.status === 'disabled';
    });
    const list = await (await plainAdmin.get('/integrations/exceptions?module=integrations')).json();
    const gone = list.results.find((e: { payload: { subscription_id: string } }) => e.payload.subscription_id === id);
    expect(gone.reason).toContain('410 Gone');
    const noReason = await plainAdmin.post(`/integrations/exceptions/${gone.id}/dismiss`, { reason: ' ' });
    expect(noReason.status).toBe(400);
    const dismissed = await plainAdmin.post(`/integrations/exceptions/${gone.id}/dismiss`, {
      reason: 'Receiver retired.',
    });
    expect(await dismissed.json()).toMatchObject({ status: 'dismissed', dismiss_reason: 'Receiver retired.' });
    receiver.answer(200);
    const patched = await admin.patch(
      `/events/subscriptions/${id}`,
      doc({ status: 'active', events: ['lines', 'claims'] }, id),
    );
    expect((await patched.json()).data.attributes).toMatchObject({ status: 'active', events: ['lines', 'claims'] });
    await admin.delete(`/events/subscriptions/${id}`);
  });
});

describe('data mappings', () => {
  const mappingDoc = (attributes: Record<string, unknown>, id?: string) => ({
    data: { type: 'mapping', ...(id ? { id } : {}), attributes },
  });
  const expression = '{ "reference": claim_number, "status": $uppercase(status) }';

  it('creates drafts, publishes, versions on change, and never changes a published version', async () => {
    const created = await admin.post(
      '/datamapping/mappings/',
      mappingDoc({ from: 'claims.claim', to: 'acme.claim', mapping: { language: 'jsonata', expression, sample: {} } }),
    );
    expect(created.status).toBe(201);
    const v1 = (await created.json()).data;
    expect(v1.attributes).toMatchObject({ version: 1, status: 'draft' });
    const twice = await admin.post(
      '/datamapping/mappings/',
      mappingDoc({ from: 'claims.claim', to: 'acme.claim', mapping: { language: 'jsonata', expression } }),
    );
    expect(twice.status).toBe(409);

    // Not published yet: nothing to run.
    const unpublished = await plainAdmin.post('/datamapping/map/?from=claims.claim&to=acme.claim', {
      claim_number: 'C1',
    });
    expect(unpublished.status).toBe(404);

    const published = await admin.patch(`/datamapping/mappings/${v1.id}`, mappingDoc({ status: 'published' }, v1.id));
    expect((await published.json()).data.attributes).toMatchObject({ version: 1, status: 'published' });
    const mapped = await plainAdmin.post('/datamapping/map/?from=claims.claim&to=acme.claim', {
      claim_number: 'CLM-000001',
      status: 'open',
    });
    expect(await mapped.json()).toEqual({
      from: 'claims.claim',
      to: 'acme.claim',
      version: 1,
      result: { reference: 'CLM-000001', status: 'OPEN' },
    });

    const changed = await admin.patch(
      `/datamapping/mappings/${v1.id}`,
      mappingDoc({ mapping: { language: 'jsonata', expression: '{ "ref": claim_number }' } }, v1.id),
    );
    const v2 = (await changed.json()).data;
    expect(v2.id).not.toBe(v1.id);
    expect(v2.attributes).toMatchObject({ version: 2, status: 'draft' });
    const stillV1 = (await (await admin.get(`/datamapping/mappings/${v1.id}`)).json()).data;
    expect(stillV1.attributes.mapping.expression).toBe(expression);
    // v1 stays the one that runs until v2 is published.
    const again = await plainAdmin.post('/datamapping/map/?from=claims.claim&to=acme.claim', { claim_number: 'X' });
    expect((await again.json()).version).toBe(1);

    const list = (await (await admin.get('/datamapping/mappings/?filter[from]=claims.claim')).json()).data;
    expect(list.map((m: { attributes: { version: number } }) => m.attributes.version)).toEqual([2, 1]);
    expect((await admin.delete(`/datamapping/mappings/${v2.id}`)).status).toBe(204);
  });

  it('refuses invalid mappings and stops runaway expressions', async () => {
    const invalid = await admin.post(
      '/datamapping/mappings/',
      mappingDoc({ from: 'a', to: 'b', mapping: { language: 'jsonata', expression: '{ "x": ' } }),
    );
    expect(invalid.status).toBe(400);
    const error = (await invalid.json()).errors[0];
    expect(error.source.pointer).toBe('/data/attributes/mapping');
    expect(error.detail).toMatch(/^The expression is not valid JSONata/);
    const notJson = await admin.post('/datamapping/mappings/', mappingDoc({ from: 'a', to: 'b', mapping: 'x' }));
    expect(notJson.status).toBe(400);

    const runaway = await plainAdmin.post('/datamapping/preview/', {
      expression: '($f := function($n) { $f($n + 1) }; $f(0))',
      sample: {},
    });
    expect((await runaway.json()).error).toMatch(/deeper than|longer than/);
    const money = await (
      await plainAdmin.post('/datamapping/preview/', {
        expression: '{ "amount": $number(amount) + 2.2 }',
        sample: { amount: '1.1' },
      })
    ).json();
    expect(money.result.amount).toBeCloseTo(3.3);
    expect(money.warnings[0]).toContain('amount became a number');
    // The registered decimal functions keep it exact, and a decimal string warns of nothing.
    const exact = await (
      await plainAdmin.post('/datamapping/preview/', {
        expression: '{ "amount": $decimalAdd(amount, "2.2"), "tax": $decimalRound($decimalMul(amount, "0.075")) }',
        sample: { amount: '1.1' },
      })
    ).json();
    expect(exact).toEqual({ result: { amount: '3.3', tax: '0.08' }, warnings: [], error: null });
  });

  it('is for administrators only', async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api', mediaType: 'jsonapi' });
    expect((await adjuster.get('/datamapping/mappings/')).status).toBe(403);
  });
});

describe('integrations and their runs', () => {
  const integrationDoc = (attributes: Record<string, unknown>) => ({ data: { type: 'integration', attributes } });

  it('runs step by step, files a failed step in the exceptions queue, and Retry there goes on from it', async () => {
    const created = await admin.post('/datamapping/mappings/', {
      data: {
        type: 'mapping',
        attributes: {
          from: 'bench.order',
          to: 'erp.invoice',
          mapping: { language: 'jsonata', expression: '{ "invoice": ref, "total": $decimalSum(lines.amount) }' },
        },
      },
    });
    const mapping = (await created.json()).data;
    await admin.patch(`/datamapping/mappings/${mapping.id}`, {
      data: { type: 'mapping', id: mapping.id, attributes: { status: 'published' } },
    });

    // The definition is checked against its schema at the boundary.
    const invalid = await admin.post(
      '/integrations/integrations',
      integrationDoc({ name: 'Broken', definition: { steps: [{ name: 'x', type: 'ftp' }] } }),
    );
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).errors[0].source.pointer).toMatch(/^\/data\/attributes\/definition/);

    const response = await admin.post(
      '/integrations/integrations',
      integrationDoc({
        name: 'Invoices to the ERP',
        category: 'accounting',
        events: ['claims'],
        definition: {
          steps: [
            { name: 'Map to an invoice', type: 'map', from: 'bench.order', to: 'erp.invoice' },
            { name: 'Post to the ERP', type: 'http', url: receiver.url },
          ],
        },
      }),
    );
    expect(response.status).toBe(201);
    const created2 = (await response.json()).data;
    expect(created2.attributes).toMatchObject({ author: 'admin@atrium.test', status: 'never run', messages: [] });
    expect(created2.relationships.data_mappings.data).toEqual([{ type: 'mapping', id: mapping.id }]);

    receiver.answer(500);
    const before = receiver.received.length;
    const input = { ref: 'INV-7', lines: [{ amount: '0.10' }, { amount: '0.20' }] };
    const failed = await plainAdmin.post(`/integrations/integrations/${created2.id}/runs`, { input });
    expect(failed.status).toBe(201);
    const run = (await failed.json()).data;
    expect(run.attributes.status).toBe('failed');
    expect(run.attributes.steps).toMatchObject([
      { position: 1, status: 'succeeded', output: { invoice: 'INV-7', total: '0.3' }, attempts: 1 },
      {
        position: 2,
        status: 'failed',
        error: `${receiver.url} answered 500.`,
        input: { invoice: 'INV-7', total: '0.3' },
      },
    ]);
    const one = (await (await admin.get(`/integrations/integrations/${created2.id}`)).json()).data;
    expect(one.attributes.status).toBe('failed');
    expect(one.attributes.messages).toEqual([`Post to the ERP: ${receiver.url} answered 500.`]);

    const queue = await (await plainAdmin.get('/integrations/exceptions?module=integrations')).json();
    const filed = queue.results.find((e: { kind: string; payload: { run_id: string } }) => e.payload.run_id === run.id);
    expect(filed).toMatchObject({ kind: 'integration-step', status: 'open', attempts: 1 });

    // Retried from the run while the ERP still fails: the same exception, one more attempt.
    const again = await (
      await plainAdmin.post(`/integrations/integrations/${created2.id}/runs/${run.id}/retry`)
    ).json();
    expect(again.data.attributes.steps[1]).toMatchObject({ status: 'failed', attempts: 2 });
    const reopened = await (await plainAdmin.get(`/integrations/exceptions/${filed.id}`)).json();
    expect(reopened).toMatchObject({ status: 'open', attempts: 2 });

    receiver.answer(200);
    const retried = await plainAdmin.post(`/integrations/exceptions/${filed.id}/retry`);
    expect(retried.status).toBe(200);
    const runs = (await (await plainAdmin.get(`/integrations/integrations/${created2.id}/runs`)).json()).data;
    expect(runs[0].attributes.status).toBe('succeeded');
    expect(runs[0].attributes.steps[1]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect((await (await plainAdmin.get(`/integrations/exceptions/${filed.id}`)).json()).status).toBe('resolved');
    const posted = receiver.received.slice(before).map((r) => JSON.parse(r.body));
    expect(posted.at(-1)).toEqual({ invoice: 'INV-7', total: '0.3' });
    // A run that succeeded cannot be retried.
    expect((await plainAdmin.post(`/integrations/integrations/${created2.id}/runs/${run.id}/retry`)).status).toBe(409);

    expect((await admin.delete(`/integrations/integrations/${created2.id}`)).status).toBe(204);
    expect((await admin.get(`/integrations/integrations/${created2.id}`)).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api', mediaType: 'jsonapi' });
    expect((await adjuster.get('/integrations/integrations')).status).toBe(403);
    expect(
      (await adjuster.post('/integrations/integrations', integrationDoc({ name: 'x', definition: { steps: [] } })))
        .status,
    ).toBe(403);
  });
});
