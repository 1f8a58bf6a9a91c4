import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import quotePlugin from '../server/plugin.js';

type Json = Record<string, any>;

/** Billing previews, payment method tokens and bind through the policies module. */
describe('quote billing and bind', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: [identityPlugin, accessPlugin, contactsPlugin, linesPlugin, rulesPlugin, policiesPlugin, quotePlugin],
    });
  });
  afterAll(() => server?.close());

  const api = async (user: string) => {
    const call = await as(server, user, { base: '/api' });
    const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const response = await call(method, path, body, headers);
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    return {
      get: (path: string) => json('GET', path),
      post: (path: string, body: unknown = {}, headers?: Record<string, string>) => json('POST', path, body, headers),
      put: (path: string, body: unknown) => json('PUT', path, body),
    };
  };

  /** A homeowners quote rated with the given roof year (an old roof raises HO-ROOF, blocking bind). */
  const ratedQuote = async (roofYear: number, extra: Json = {}, creator = 'agent@agency.test') => {
    const agent = await api('agent@agency.test');
    const q = (
      await (
        await api(creator)
      ).post('/quote/', {
        product_name: 'homeowners',
        effective_date: '2026-03-01',
        named_insured: { name: 'Bo Binder' },
        // Quoting permissions are per state: the demo agent's are in NY, IL and TX.
        state: 'TX',
        ...extra,
      })
    ).body;
    const answers = {
      zip: '78701',
      construction: 'masonry',
      protection_class: 4,
      year_built: 2001,
      roof_year: roofYear,
    };
    expect(
      (await agent.put(`/quote/risks/${q.risk_quote.id}/`, { risk_state: { field_answers: answers } })).status,
    ).toBe(200);
    const rated = await agent.post(`/quote/${q.quote_number}/rate/`);
    expect(rated.status).toBe(200);
    return { agent, number: q.quote_number as string, premium: rated.body.premium.term as string };
  };

  it('holds producers to their contact’s quoting permissions per product, state and action; staff are not limited', async () => {
    // The demo agent (CON-AGENT-ALEX) quotes, submits and binds Homeowners in NY, IL and TX only.
    const agent = await api('agent@agency.test');
    const refused = await agent.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name: 'Cal Ifornia' },
      state: 'CA',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('You may not create Homeowners HO-3 quotes in CA.');

    // An underwriter quotes in CA for the agent: the agent may not submit nor bind it.
    const ca = await ratedQuote(2015, { state: 'CA', agent_contact_id: 'CON-AGENT-ALEX' }, 'underwriter@atrium.test');
    const shown = await agent.get(`/quote/${ca.number}/`);
    expect(shown.body).toMatchObject({ state: 'CA', quoting_actions: { quote: false, submit: false, bind: false } });
    const submitted = await agent.post(`/quote/${ca.number}/submit/`);
    expect(submitted.status).toBe(403);
    expect(submitted.body.detail).toBe('You may not submit Homeowners HO-3 quotes in CA.');
    const underwriter = await api('underwriter@atrium.test');
    expect((await underwriter.post(`/quote/${ca.number}/submit/`)).body.status).toBe('Approved');
    const bindRefused = await agent.post(`/quote/${ca.number}/bind_requested/`);
    expect(bindRefused.status).toBe(403);
    expect(bindRefused.body.detail).toBe('You may not bind Homeowners HO-3 quotes in CA.');
    expect((await agent.post('/v2/policies/create_policy', { quote_number: ca.number })).status).toBe(403);
    expect((await agent.get(`/quote/${ca.number}/`)).body.is_bound).toBe(false);
    expect((await underwriter.get(`/quote/${ca.number}/`)).body.quoting_actions).toEqual({
      quote: true,
      submit: true,
      bind: true,
    });

    // A quote without a state submits and binds nowhere: permissions are per state (409, in words).
    const stateless = await ratedQuote(2015, { state: undefined });
    expect((await agent.get(`/quote/${stateless.number}/`)).body.quoting_actions).toMatchObject({
      submit: false,
      bind: false,
    });
    const noState = await agent.post(`/quote/${stateless.number}/submit/`);
    expect(noState.status).toBe(409);
    expect(noState.body.detail).toBe("Choose the quote's state before you submit it.");

    // With the permission for the product and state, the agent binds.
    const ny = await ratedQuote(2015, { state: 'NY' });
    expect((await agent.get(`/quote/${ny.number}/`)).body.quoting_actions.bind).toBe(true);
    expect((await agent.post(`/quote/${ny.number}/submit/`)).body.status).toBe('Approved');
    const bound = await agent.post(`/quote/${ny.number}/bind_requested/`);
    expect(bound.status).toBe(200);
    expect(bound.body.policy.policy_number).toBeTruthy();
    // Moving a quote to a state the agent may not quote in is refused too.
    const moved = await agent.put(`/quote/${ca.number}/`, { state: 'NV' });
    expect(moved.status).toBe(403);
    expect(moved.body.detail).toBe('You may not create Homeowners HO-3 quotes in NV.');
    // Staff bind where the agent may not.
    expect((await underwriter.post(`/quote/${ca.number}/bind_requested/`)).status).toBe(200);

    // A producer whose contact has no quoting permission at all may not quote (agency users: the agency's).
    const admin = await as(server, 'admin@atrium.test', { base: '/api/contacts' });
    const listed = await admin.get('/quoting-permissions/?filter[contact]=CON-AGENCY-HARBOUR&page[size]=100');
    const grants = ((await listed.json()) as Json).data as Json[];
    expect(grants.length).toBeGreaterThan(0);
    const removed = await Promise.all(grants.map((g) => admin.delete(`/quoting-permissions/${g.id}/`)));
    expect(removed.map((r) => r.status)).toEqual(grants.map(() => 204));
    const agency = await api('agency@agency.test');
    const none = await agency.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name: 'Una Appointed' },
    });
    expect(none.status).toBe(403);
    expect(none.body.detail).toBe('You may not create Homeowners HO-3 quotes.');
  });

  it('previews installments, keeps the schedule and a tokenised payment method, refuses card numbers, and binds', async () => {
    const { agent, number, premium } = await ratedQuote(2015);
    expect((await agent.post(`/quote/${number}/submit/`)).body.status).toBe('Approved');
    const config = await agent.get(`/quote/${number}/billing/config/`);
    expect(config.body.schedules.length).toBeGreaterThan(0);
    const schedule =
      config.body.schedules.find((s: Json) => s.paymentMethods.includes('card')) ?? config.body.schedules[0];
    const preview = await agent.post('/v2/billing/get_installments_preview', {
      billing_schedule_ids: [schedule.id],
      effective_date: '2026-03-01',
      premium,
      payment_method: 'card',
    });
    expect(preview.body.success).toBe(true);
    const amounts = preview.body.previews[0].installments.map((i: Json) => Math.round(Number(i.amount) * 100));
    expect(amounts.reduce((a: number, b: number) => a + b, 0)).toBe(Math.round(Number(premium) * 100));

    const card = await agent.post('/v2/payments/add_payment_method', {
      quote_number: number,
      type: 'card',
      card_number: '4242 4242 4242 4242',
      last4: '4242',
      expiry: '12/29',
    });
    expect(card.status).toBe(400);
    expect(card.body.code ?? JSON.stringify(card.body)).toContain('account_number_refused');
    const inToken = await agent.post('/v2/payments/add_payment_method', {
      quote_number: number,
      type: 'ach',
      token: '021000021123456789',
      last4: '6789',
    });
    expect(inToken.status).toBe(400);
    const unknownToken = await agent.post('/v2/payments/add_payment_method', {
      quote_number: number,
      type: 'card',
      token: 'tok_live_x',
      last4: '4242',
      expiry: '12/29',
    });
    expect(unknownToken.status).toBe(400);
    const added = await agent.post('/v2/payments/add_payment_method', {
      quote_number: number,
      type: 'card',
      token: 'tok_test_abcdef123456',
      last4: '4242',
      expiry: '12/29',
    });
    expect(added.status).toBe(201);
    const stored = (await server.atrium.database.pool.query('select token, last4, expiry from quote.payment_method'))
      .rows;
    expect(stored).toEqual([{ token: 'tok_test_abcdef123456', last4: '4242', expiry: '12/29' }]);

    const chosen = await agent.post(
      `/quote/${number}/billing/`,
      {
        data: {
          type: 'billing',
          attributes: { billing_schedule_id: schedule.id, payment_method_id: added.body.payment_method.id },
        },
      },
      { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
    );
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.attributes.billing_schedule_id).toBe(schedule.id);

    const bound = await agent.post(`/quote/${number}/bind_requested/`);
    expect(bound.status).toBe(200);
    expect(bound.body).toMatchObject({ is_bound: true, meta: { locked: true } });
    expect(bound.body.policy.policy_number).toBeTruthy();
    const [policy] = (
      await server.atrium.database.pool.query(
        'select number, quote_number from policies.policy where quote_number = $1',
        [number],
      )
    ).rows;
    expect(policy.number).toBe(bound.body.policy.policy_number);
    // The quote's life is in the outbox, written with each change: created, bound (with its policy).
    const events = (
      await server.atrium.database.pool.query<{ topic: string; data: Record<string, unknown> }>(
        "select topic, data from core.event_outbox where topic like 'quote.%' and data->>'quote_number' = $1 order by id",
        [number],
      )
    ).rows;
    expect(events[0]).toMatchObject({ topic: 'quote.quote.created', data: { from_status: null, trigger: 'create' } });
    // The submit's status change, written in the status update's own statement.
    expect(events).toContainEqual(
      expect.objectContaining({
        topic: 'quote.quote.status-changed',
        data: expect.objectContaining({ from_status: 'In Progress', status: 'Approved', trigger: 'submit' }),
      }),
    );
    expect(events.at(-1)).toMatchObject({
      topic: 'quote.quote.bound',
      data: { policy_number: policy.number, trigger: 'bind', changed_by: 'agent@agency.test' },
    });
    // The policy's term 1, revision 1, new business transaction and installments (written in one
    // statement) hang together; the installments are the chosen schedule's and sum to the premium.
    const [issued] = (
      await server.atrium.database.pool.query(
        `select t.number as term, r.number as revision, r.written_premium::text as written, x.type, x.revision_id = r.id as linked,
           (select json_agg(json_build_object('number', i.number, 'amount', i.amount::text, 'schedule', i.schedule_id,
              'transaction', i.transaction_id = x.id, 'method', i.payment_method_id) order by i.number)
            from policies.installment i where i.policy_id = p.id and i.term_id = t.id) as installments
         from policies.policy p join policies.policy_term t on t.policy_id = p.id
           join policies.policy_revision r on r.term_id = t.id join policies.policy_transaction x on x.term_id = t.id
         where p.number = $1`,
        [policy.number],
      )
    ).rows;
    expect(issued).toMatchObject({ term: 1, revision: 1, written: premium, type: 'new_business', linked: true });
    expect(issued.installments.map((i: Json) => i.number)).toEqual(amounts.map((_: number, n: number) => n + 1));
    expect(issued.installments.every((i: Json) => i.schedule === schedule.id && i.transaction === true)).toBe(true);
    expect(issued.installments.every((i: Json) => i.method === String(added.body.payment_method.id))).toBe(true);
    expect(issued.installments.reduce((sum: number, i: Json) => sum + Math.round(Number(i.amount) * 100), 0)).toBe(
      Math.round(Number(premium) * 100),
    );
    const [policyEvent] = (
      await server.atrium.database.pool.query<{ data: Record<string, unknown> }>(
        "select data from core.event_outbox where topic = 'policies.policy.issued' and data->>'policy_number' = $1",
        [policy.number],
      )
    ).rows;
    expect(policyEvent?.data).toMatchObject({ quote_number: number, premium });
    // Bound: locked and not bound twice.
    expect((await agent.post(`/quote/${number}/bind_requested/`)).status).toBe(409);
    const root = (await agent.get(`/quote/${number}/`)).body.risk_quote.id;
    expect((await agent.put(`/quote/risks/${root}/`, { risk_state: { field_answers: { zip: '78702' } } })).status).toBe(
      409,
    );
  });

  it('refuses bind with 409 while an issue blocking bind is open, naming it and who clears it', async () => {
    const { agent, number } = await ratedQuote(1990);
    expect((await agent.post(`/quote/${number}/submit/`)).body.status).toBe('In Review');
    const underwriter = await api('underwriter@atrium.test');
    // Force the quote Approved without clearing the issue: bind still refuses.
    await server.atrium.database.pool.query(`update quote.quote set status = 'Approved' where number = $1`, [number]);
    const refused = await agent.post('/v2/policies/create_policy', { quote_number: number });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('HO-ROOF');
    expect(JSON.stringify(refused.body)).toContain('Underwriter');
    const issue = (await agent.get(`/quote/${number}/`)).body.underwriting_issues[0];
    expect((await agent.post(`/quote/${number}/underwriting-issues/${issue.id}/approve/`, {})).status).toBe(403);
    expect(
      (
        await underwriter.post(`/quote/${number}/underwriting-issues/${issue.id}/approve/`, {
          reason: 'New roof photos.',
        })
      ).status,
    ).toBe(200);
    const created = await agent.post('/v2/policies/create_policy', { quote_number: number });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, revision: 1 });
  });

  it('takes attachments by a direct upload to storage, of allowed types and sizes, and removes them', async () => {
    const { agent, number } = await ratedQuote(2015);
    const bytes = new TextEncoder().encode('%PDF-1.4 roof inspection report');
    const announced = await agent.post(`/quote/${number}/attachments/`, {
      name: 'Roof inspection.pdf',
      content_type: 'application/pdf',
      size: bytes.length,
      source: 'upload',
    });
    expect(announced.status).toBe(201);
    expect(announced.body).toMatchObject({ name: 'Roof inspection.pdf', uploaded: false, url: null });
    // The form upload: every field first, then the file, without the bearer token.
    const form = new FormData();
    for (const [key, value] of Object.entries(announced.body.upload.fields as Record<string, string>)) {
      form.append(key, value);
    }
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'Roof inspection.pdf');
    const uploaded = await server.fetch(announced.body.upload.url, { method: 'POST', body: form });
    expect(uploaded.status).toBeLessThan(300);
    const list = await agent.get(`/quote/${number}/attachments/`);
    expect(list.body.results).toMatchObject([{ id: announced.body.id, uploaded: true, size: bytes.length }]);
    const caller = await as(server, 'agent@agency.test');
    const content = await caller.get(list.body.results[0].url);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(bytes);

    // Only allowed types, and not too large; the underwriter sees the file too.
    const exe = await agent.post(`/quote/${number}/attachments/`, {
      name: 'tool.exe',
      content_type: 'application/x-msdownload',
      size: 10,
    });
    expect(exe.status).toBe(400);
    expect(JSON.stringify(exe.body)).toContain('/content_type');
    const huge = await agent.post(`/quote/${number}/attachments/`, {
      name: 'scan.pdf',
      content_type: 'application/pdf',
      size: 200 * 1024 * 1024,
    });
    expect(huge.status).toBe(400);
    expect(JSON.stringify(huge.body)).toContain('larger than');
    const underwriter = await api('underwriter@atrium.test');
    expect((await underwriter.get(`/quote/${number}/attachments/`)).body.results).toHaveLength(1);

    const removed = await caller.delete(`/api/quote/${number}/attachments/${announced.body.id}/`);
    expect(removed.status).toBe(204);
    expect((await agent.get(`/quote/${number}/attachments/`)).body.results).toEqual([]);
    expect((await caller.get(list.body.results[0].url)).status).toBe(404);
  });
});
