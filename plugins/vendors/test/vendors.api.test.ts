import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import quotePlugin from '@atrium/plugin-quote/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import vendorsPlugin from '../server/plugin.js';
import {
  FAKE_COMPANY_NAME,
  FAKE_DOCUSIGN_ACCOUNT,
  FAKE_REALM,
  startFakeVendors,
  type FakeVendors,
} from './fake-vendors.js';

type Json = Record<string, any>;

/**
 * QuickBooks and DocuSign connected end to end on a real server against the local stand-in
 * (fake-vendors.ts): the popup's redirect is followed by hand, a quote is bound through the quote
 * API, and the invoice reaches QuickBooks once although its first answer is lost.
 */
let server: TestServer;
let fake: FakeVendors;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startFakeVendors();
  fake.clients.set('qbo-client', 'qbo-secret');
  fake.clients.set('ds-integration-key', 'ds-secret');
  process.env.ATRIUM_VENDORS_TEST_ORIGIN = fake.origin;
  // The test drives the sync itself (POST …/sync); the poll stays out of the way.
  process.env.ATRIUM_VENDORS_POLL_MS = '600000';
  server = await startTestServer({
    plugins: [
      identityPlugin,
      accessPlugin,
      contactsPlugin,
      linesPlugin,
      rulesPlugin,
      policiesPlugin,
      quotePlugin,
      vendorsPlugin,
    ],
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
  process.env = saved;
});

const api = async (user: string) => {
  const call = await as(server, user, { base: '/api' });
  const json = async (method: string, path: string, body?: unknown) => {
    const response = await call(method, path, body);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  return {
    get: (path: string) => json('GET', path),
    post: (path: string, body: unknown = {}) => json('POST', path, body),
    put: (path: string, body: unknown) => json('PUT', path, body),
    patch: (path: string, body: unknown) => json('PATCH', path, body),
    delete: (path: string) => json('DELETE', path),
  };
};

/** What the popup does: open the vendor's page (which consents at once) and read the redirect's query. */
async function consent(authorizationUrl: string): Promise<Record<string, string>> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.pathname).toBe('/oauth2callback');
  return Object.fromEntries(back.searchParams);
}

async function bindPolicy(name: string): Promise<string> {
  const underwriter = await api('underwriter@atrium.test');
  const q = (
    await underwriter.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name },
      state: 'TX',
    })
  ).body;
  const answers = { zip: '78701', construction: 'masonry', protection_class: 4, year_built: 2001, roof_year: 2015 };
  expect(
    (await underwriter.put(`/quote/risks/${q.risk_quote.id}/`, { risk_state: { field_answers: answers } })).status,
  ).toBe(200);
  expect((await underwriter.post(`/quote/${q.quote_number}/rate/`)).status).toBe(200);
  await underwriter.post(`/quote/${q.quote_number}/submit/`);
  const bound = await underwriter.post(`/quote/${q.quote_number}/bind_requested/`);
  expect(bound.status).toBe(200);
  return bound.body.policy.policy_number as string;
}

describe('QuickBooks Online', () => {
  it('connects with state and PKCE, seals its tokens and refuses a replayed callback', async () => {
    const admin = await api('admin@atrium.test');
    const notSetUp = await admin.get('/accounting/quickbooks/oauth/auth');
    expect(notSetUp.status).toBe(400);
    expect(notSetUp.body.detail).toBe("Set the QuickBooks Online app's client id and secret first.");
    const invalid = await admin.patch('/vendors/connections/quickbooks/', { environment: 'staging' });
    expect(invalid.status).toBe(400);
    const configured = await admin.patch('/vendors/connections/quickbooks/', {
      client_id: 'qbo-client',
      client_secret: 'qbo-secret',
      environment: 'sandbox',
    });
    expect(configured.body).toMatchObject({ status: 'disconnected', client_secret_set: true, environment: 'sandbox' });
    expect(JSON.stringify(configured.body)).not.toContain('qbo-secret');

    const started = await admin.get('/accounting/quickbooks/oauth/auth');
    expect(started.status).toBe(200);
    const url = new URL(started.body.links.authorization_url);
    expect(url.pathname).toBe('/appcenter.intuit.com/connect/oauth2');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('com.intuit.quickbooks.accounting');
    const params = await consent(url.href);
    const connected = await admin.post('/vendors/oauth/callback', params);
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({
      status: 'connected',
      account_id: FAKE_REALM,
      account_name: FAKE_COMPANY_NAME,
      connected_by: 'admin@atrium.test',
    });

    const replayed = await admin.post('/vendors/oauth/callback', params);
    expect(replayed.status).toBe(400);
    expect(replayed.body.detail).toBe("Local state's nonce does not match received value");

    const rows = await server.atrium.database.db.execute(
      sql`select access_token_sealed, refresh_token_sealed, client_secret_sealed from vendors.connection where vendor = 'quickbooks'`,
    );
    for (const value of Object.values(rows.rows[0] as Record<string, string>)) expect(value).toMatch(/^sealed:v1:/);

    const switching = await admin.patch('/vendors/connections/quickbooks/', { environment: 'production' });
    expect(switching.status).toBe(409);
    expect((await (await api('agent@agency.test')).get('/vendors/connections/')).status).toBe(403);
  });

  it('creates the customer and invoice of a bound policy exactly once, even when the answer is lost and the call retried', async () => {
    const admin = await api('admin@atrium.test');
    const number = await bindPolicy('Quinn Books');
    fake.dropNextInvoiceResponse = true;
    const first = await admin.post('/vendors/quickbooks/sync');
    expect(first.body).toMatchObject({ queued: 1, sent: 0, failed: 1 });
    // QuickBooks made both; we never heard about the invoice.
    expect(fake.customers.filter((c) => c.DisplayName === 'Quinn Books')).toHaveLength(1);
    expect(fake.invoices.filter((i) => i.DocNumber === number)).toHaveLength(1);
    const failed = (await admin.get('/vendors/quickbooks/invoices/')).body.results[0];
    expect(failed).toMatchObject({ policy_number: number, status: 'failed', attempts: 1 });
    expect(failed.last_error).toMatch(/could not be reached/);
    // What was sent is on the record although the answer never came.
    expect(failed.request.invoice).toMatchObject({ DocNumber: number, CustomerRef: { value: failed.customer_id } });
    expect((await admin.get('/vendors/connections/quickbooks/')).body.status).toBe('error');

    const retried = await admin.post(`/vendors/quickbooks/invoices/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    const invoice = fake.invoices.find((i) => i.DocNumber === number)!;
    expect(retried.body).toMatchObject({ status: 'sent', invoice_id: invoice.Id, attempts: 2 });
    expect(retried.body.request.invoice.Line[0].Amount).toBe(invoice.TotalAmt);
    expect((await admin.post('/vendors/quickbooks/sync')).body).toMatchObject({ queued: 0, sent: 0 });
    expect(fake.customers.filter((c) => c.DisplayName === 'Quinn Books')).toHaveLength(1);
    expect(fake.invoices.filter((i) => i.DocNumber === number)).toHaveLength(1);
    expect(invoice.host).toBe('sandbox-quickbooks.api.intuit.com');
    const view = (await admin.get('/vendors/connections/quickbooks/')).body;
    expect(view.status).toBe('connected');
    expect(view.last_sync_at).toBeTruthy();
  });

  it('refreshes the token when QuickBooks refuses it, and before it expires', async () => {
    const admin = await api('admin@atrium.test');
    await bindPolicy('Rae Fresh');
    fake.rejectNextApiCall = true;
    expect((await admin.post('/vendors/quickbooks/sync')).body).toMatchObject({ sent: 1, failed: 0 });
    expect(fake.tokenGrants.filter((g) => g === 'refresh_token')).toHaveLength(1);
    // A token dying within the margin is refreshed before the call.
    await server.atrium.database.db.execute(
      sql`update vendors.connection set access_expires_at = now() + interval '1 minute' where vendor = 'quickbooks'`,
    );
    await bindPolicy('Sam Soon');
    expect((await admin.post('/vendors/quickbooks/sync')).body).toMatchObject({ sent: 1 });
    expect(fake.tokenGrants.filter((g) => g === 'refresh_token')).toHaveLength(2);
    expect((await admin.get('/vendors/connections/quickbooks/')).body.last_refresh_at).toBeTruthy();
  });

  it('disconnects: revokes the refresh token and forgets every token', async () => {
    const admin = await api('admin@atrium.test');
    const gone = await admin.delete('/accounting/quickbooks/oauth/auth');
    expect(gone.status).toBe(200);
    expect(gone.body.data).toMatchObject({ status: 'disconnected', account_id: null });
    expect(fake.revoked).toHaveLength(1);
    expect((await admin.post('/vendors/quickbooks/sync')).status).toBe(409);
  });
});

describe('DocuSign', () => {
  it('is configured through /esignature/config/, connects to the default account and sends an envelope for a quote document', async () => {
    const admin = await api('admin@atrium.test');
    const patched = await admin.patch('/esignature/config/', {
      data: { type: 'config', attributes: { client_id: 'ds-integration-key', client_secret: 'ds-secret' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ type: 'config', attributes: { status: 'disconnected' } });
    const started = await admin.get('/esignature/oauth/url');
    expect(new URL(started.body.links.authorization_url).pathname).toBe('/account-d.docusign.com/oauth/auth');
    const connected = await admin.post('/vendors/oauth/callback', await consent(started.body.links.authorization_url));
    expect(connected.body).toMatchObject({
      status: 'connected',
      account_id: FAKE_DOCUSIGN_ACCOUNT,
      account_name: 'Atrium Carrier',
    });

    const refused = await admin.post('/vendors/docusign/envelopes/', {
      quote_number: 'Q-1',
      document_name: 'quote.exe',
      document_base64: 'AAAA',
      signer_name: 'Dee',
      signer_email: 'not-an-email',
    });
    expect(refused.status).toBe(400);
    const sent = await admin.post('/vendors/docusign/envelopes/', {
      quote_number: 'Q-1001',
      document_name: 'quote-Q-1001.pdf',
      document_base64: Buffer.from('%PDF-1.4 Signature').toString('base64'),
      signer_name: 'Dee Signer',
      signer_email: 'dee@insured.test',
    });
    expect(sent.status).toBe(201);
    expect(fake.envelopes).toHaveLength(1);
    expect(sent.body).toMatchObject({ status: 'sent', envelope_id: fake.envelopes[0]!.envelopeId });
    expect(fake.envelopes[0]!.host).toBe('demo.docusign.net');
    expect(fake.envelopes[0]!.body.recipients.signers[0]).toMatchObject({ email: 'dee@insured.test' });

    const disconnected = await admin.delete('/esignature/oauth');
    expect(disconnected.body.data.status).toBe('disconnected');
    expect((await admin.get('/esignature/config/')).body.data.attributes.status).toBe('disconnected');
  });
});
