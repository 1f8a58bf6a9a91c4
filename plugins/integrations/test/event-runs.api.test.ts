import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type Caller, type TestServer } from '@atrium/sdk/testing';
import { issuanceService } from '../../policies/server/services.js';

/**
 * Integration runs started by their events (once per event), PATCH of an integration, a runaway
 * mapping step stopped in its worker while the server keeps answering, and failed policy
 * transactions in the exceptions queue with Retry re-running them. One server for all (PGlite).
 */
let server: TestServer;
let admin: Caller;
let plain: Caller;
let receiver: { url: string; bodies: unknown[]; close: () => Promise<void> };
const saved = { ...process.env };

beforeAll(async () => {
  process.env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE = 'true';
  process.env.ATRIUM_WEBHOOKS_POLL_MS = '100';
  const bodies: unknown[] = [];
  const listener = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  receiver = {
    url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/crm`,
    bodies,
    close: () => new Promise((done) => listener.close(() => done())),
  };
  server = await startTestServer();
  admin = await as(server, 'admin@atrium.test', { base: '/api', mediaType: 'jsonapi' });
  plain = await as(server, 'admin@atrium.test', { base: '/api' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  process.env = saved;
});

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const integrationDoc = (attributes: Record<string, unknown>, id?: string) => ({
  data: { type: 'integration', ...(id ? { id } : {}), attributes },
});

async function publishMapping(from: string, to: string, expression: string): Promise<void> {
  const created = await admin.post('/datamapping/mappings/', {
    data: { type: 'mapping', attributes: { from, to, mapping: { language: 'jsonata', expression } } },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()).data;
  const published = await admin.patch(`/datamapping/mappings/${id}`, {
    data: { type: 'mapping', id, attributes: { status: 'published' } },
  });
  expect(published.status).toBe(200);
}

const createClaim = async () => {
  const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' });
  const response = await adjuster.post('/claims/', {
    data: { type: 'claim', attributes: { loss_description: 'Hail on the roof' } },
  });
  expect(response.status).toBe(201);
  return (await response.json()).data as { id: string };
};

interface Run {
  attributes: { status: string; trigger: string; event_id: string | null; steps: { status: string; error: string }[] };
}
const runsOf = async (id: string): Promise<Run[]> =>
  (await (await plain.get(`/integrations/integrations/${id}/runs`)).json()).data;

describe('integration runs started by events', () => {
  it('updates an integration with validation, and runs it once per matching event', async () => {
    await publishMapping('claims.claim', 'crm.case', '{ "case": data.claim_number, "by": triggering_user }');
    const created = await admin.post(
      '/integrations/integrations',
      integrationDoc({
        name: 'Claims to the CRM',
        definition: { steps: [{ name: 'To a case', type: 'map', from: 'claims.claim', to: 'crm.case' }] },
      }),
    );
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id as string;

    // PATCH is validated at the boundary like POST.
    const badEvents = await admin.patch(
      `/integrations/integrations/${id}`,
      integrationDoc({ events: ['Claims!'] }, id),
    );
    expect(badEvents.status).toBe(400);
    expect((await badEvents.json()).errors[0].source.pointer).toBe('/data/attributes/events/0');
    const badStep = await admin.patch(
      `/integrations/integrations/${id}`,
      integrationDoc({ definition: { steps: [] } }, id),
    );
    expect(badStep.status).toBe(400);
    expect((await badStep.json()).errors[0].detail).toBe('An integration needs at least one step.');

    // Before it listens, a claim starts nothing.
    await createClaim();
    const patched = await admin.patch(
      `/integrations/integrations/${id}`,
      integrationDoc(
        {
          name: 'Claims to the CRM (live)',
          events: ['claims.claim'],
          definition: {
            steps: [
              { name: 'To a case', type: 'map', from: 'claims.claim', to: 'crm.case' },
              { name: 'Post to the CRM', type: 'http', url: receiver.url },
            ],
          },
        },
        id,
      ),
    );
    expect(patched.status).toBe(200);
    expect((await patched.json()).data.attributes).toMatchObject({
      name: 'Claims to the CRM (live)',
      events: ['claims.claim'],
    });

    await createClaim();
    await createClaim();
    const runs = await until('two event runs', async () => {
      const found = await runsOf(id);
      return found.length === 2 && found.every((r) => r.attributes.status === 'succeeded') && found;
    });
    expect(runs.map((r) => r.attributes.trigger)).toEqual(['event', 'event']);
    expect(new Set(runs.map((r) => r.attributes.event_id)).size).toBe(2);
    const cases = receiver.bodies.map((b) => (b as { case: string }).case);
    expect(cases).toHaveLength(2);
    expect(new Set(cases).size).toBe(2);
    for (const number of cases) expect(number).toMatch(/^CLM-\d+$/);
    expect(receiver.bodies[0]).toMatchObject({ by: 'adjuster@atrium.test' });
    // Once per event: later dispatcher rounds queue nothing more.
    await new Promise((r) => setTimeout(r, 500));
    expect(await runsOf(id)).toHaveLength(2);
    expect((await admin.delete(`/integrations/integrations/${id}`)).status).toBe(204);
  });

  it('stops a runaway mapping step in its worker with a clear message while the server keeps answering', async () => {
    await publishMapping('bench.text', 'bench.match', `$match("${'a'.repeat(40)}!", /(a+)+$/)`);
    const created = await admin.post(
      '/integrations/integrations',
      integrationDoc({
        name: 'Runaway',
        definition: { steps: [{ name: 'Match', type: 'map', from: 'bench.text', to: 'bench.match' }] },
      }),
    );
    const id = (await created.json()).data.id as string;
    const running = plain.post(`/integrations/integrations/${id}/runs`, { input: {} });
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect((await plain.get('/integrations/exceptions')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    const run = (await (await running).json()).data as Run;
    expect(run.attributes.status).toBe('failed');
    expect(run.attributes.steps[0]!.error).toBe('The mapping took longer than 1000 ms and was stopped.');
    expect((await admin.delete(`/integrations/integrations/${id}`)).status).toBe(204);
  });
});

describe('failed policy transactions in the exceptions queue', () => {
  it('reports a failed transaction, and Retry there re-runs it', async () => {
    const issued = await server.atrium.database.db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'q-exceptions',
        quoteNumber: 'QTE-EXCEPTIONS',
        productSlug: 'homeowners',
        productVersionId: null,
        state: 'IL',
        effectiveDate: '2026-01-15',
        expirationDate: '2027-01-15',
        namedInsured: { contactId: null, name: 'Exceptions Queue' },
        agentContactId: 'CON-AGENT-NOOR',
        agencyContactId: 'CON-AGENCY-NORTHGATE',
        premium: '1200.00',
        worksheet: null,
        risks: {},
        billing: { scheduleId: 'quarterly', paymentMethodId: null },
        issuedBy: 'underwriter@atrium.test',
      }),
    );
    const policyId = Number(issued.policyId);
    const underwriter = await as(server, 'underwriter@atrium.test', { base: '/api' });
    const transact = async (body: Record<string, unknown>) => {
      const started = await (await underwriter.post('/policies/policy-transactions/', body)).json();
      return until('the transaction', async () => {
        const row = await (await underwriter.get(`/policies/policy-transactions/${started.id}/`)).json();
        return ['completed', 'failed'].includes(row.status) && row;
      });
    };
    // Reinstating a policy that is not canceled fails: it lands in the queue.
    const failed = await transact({ policy: policyId, type: 'reinstatement', effective_date: '2026-06-01' });
    expect(failed).toMatchObject({ status: 'failed', error: 'Only a canceled policy can be reinstated.' });
    const filed = await until('the exception', async () => {
      const queue = await (await plain.get('/integrations/exceptions?module=policies')).json();
      return queue.results.find(
        (e: { payload: { transaction_id: number } }) => e.payload.transaction_id === failed.id,
      ) as { id: string; kind: string; reason: string; attempts: number; retryable: boolean } | undefined;
    });
    expect(filed).toMatchObject({ kind: 'policy-transaction', attempts: 1, retryable: true });
    expect(filed.reason).toMatch(/^The reinstatement of policy .+ effective 2026-06-01 failed: Only a canceled/);

    // Retried while it still cannot succeed: the same exception, reopened with one more attempt.
    expect((await plain.post(`/integrations/exceptions/${filed.id}/retry`)).status).toBe(200);
    await until('the failed retry', async () => {
      const one = await (await plain.get(`/integrations/exceptions/${filed.id}`)).json();
      return one.status === 'open' && one.attempts === 2;
    });

    // Once the policy is canceled, Retry re-runs the reinstatement, and the exception resolves.
    expect(
      (await transact({ policy: policyId, type: 'cancellation', effective_date: '2026-06-01', method: 'pro_rata' }))
        .status,
    ).toBe('completed');
    expect((await plain.post(`/integrations/exceptions/${filed.id}/retry`)).status).toBe(200);
    await until('the resolved exception', async () => {
      const one = await (await plain.get(`/integrations/exceptions/${filed.id}`)).json();
      return one.status === 'resolved';
    });
    const rerun = await (await underwriter.get(`/policies/policy-transactions/${failed.id}/`)).json();
    expect(rerun).toMatchObject({ status: 'completed', error: null });

    // A failure dismissed in Policies leaves the queue too, with the same reason.
    const other = await server.atrium.database.db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'q-exceptions-2',
        quoteNumber: 'QTE-EXCEPTIONS-2',
        productSlug: 'homeowners',
        productVersionId: null,
        state: 'IL',
        effectiveDate: '2026-01-15',
        expirationDate: '2027-01-15',
        namedInsured: { contactId: null, name: 'Exceptions Queue Two' },
        agentContactId: 'CON-AGENT-NOOR',
        agencyContactId: 'CON-AGENCY-NORTHGATE',
        premium: '900.00',
        worksheet: null,
        risks: {},
        billing: { scheduleId: 'quarterly', paymentMethodId: null },
        issuedBy: 'underwriter@atrium.test',
      }),
    );
    // Reinstating a policy in force fails, as above.
    const again = await transact({
      policy: Number(other.policyId),
      type: 'reinstatement',
      effective_date: '2026-07-01',
    });
    expect(again.status).toBe('failed');
    const second = await until('the second exception', async () => {
      const queue = await (await plain.get('/integrations/exceptions?module=policies')).json();
      return queue.results.find(
        (e: { payload: { transaction_id: number } }) => e.payload.transaction_id === again.id,
      ) as { id: string } | undefined;
    });
    const dismissed = await underwriter('PATCH', `/policies/policy-transactions/${again.id}/`, {
      reason_dismissed: 'In force already; nothing to do.',
    });
    expect(dismissed.status).toBe(200);
    const gone = await (await plain.get(`/integrations/exceptions/${second.id}`)).json();
    expect(gone).toMatchObject({ status: 'dismissed', dismiss_reason: 'In force already; nothing to do.' });
  });
});
