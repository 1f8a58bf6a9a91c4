import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import uiPlugins from '@atrium/plugin-ui-plugins/server';
import quotePlugin from '../server/plugin.js';

type Json = Record<string, any>;

/**
 * A third-party plugin's risk changes are audited (issue 22): the host marks its calls with
 * X-Atrium-Plugin, quote checks the plugin with the ui-plugins module and writes who, which plugin,
 * the patch and the changed answers in the change's own transaction.
 */
describe('quote audit of plugin changes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: [
        identityPlugin,
        accessPlugin,
        contactsPlugin,
        linesPlugin,
        rulesPlugin,
        policiesPlugin,
        uiPlugins,
        quotePlugin,
      ],
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
      post: (path: string, body: unknown, headers?: Record<string, string>) => json('POST', path, body, headers),
      put: (path: string, body: unknown, headers?: Record<string, string>) => json('PUT', path, body, headers),
      delete: (path: string, headers?: Record<string, string>) => json('DELETE', path, undefined, headers),
    };
  };

  const register = async (attributes: Json) => {
    const admin = await as(server, 'admin@atrium.test', { base: '/api/integrations', mediaType: 'jsonapi' });
    const res = await admin.post('/plugins/', {
      data: {
        type: 'plugin',
        attributes: {
          plugin_slots: [{ slot_name: 'quote:risk-edit:button-row' }],
          configuration: {},
          content: '<!doctype html><p>plugin</p>',
          ...attributes,
        },
      },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  const homeQuote = async (agent: Awaited<ReturnType<typeof api>>) => {
    const created = await agent.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name: 'Pat Plugin' },
      state: 'TX',
    });
    expect(created.status).toBe(201);
    return created.body as Json;
  };

  it('records a plugin’s update-risk with the user, the plugin, its patch and the changed answers', async () => {
    const pluginId = await register({ name: 'Roof helper', enabled: true });
    const agent = await api('agent@agency.test');
    const q = await homeQuote(agent);
    const root = q.risk_quote.id as number;
    await agent.put(`/quote/risks/${root}/`, { risk_state: { field_answers: { roof_year: 2001 } } });
    const patch = [{ op: 'replace', path: '/field_answers/roof_year', value: 2024 }];
    const saved = await agent.put(
      `/quote/risks/${root}/`,
      { risk_state: { field_answers: { roof_year: 2024 } }, plugin_patch: patch },
      { 'x-atrium-plugin': pluginId },
    );
    expect(saved.status).toBe(200);
    const audit = await agent.get(`/quote/${q.quote_number}/audit/`);
    expect(audit.status).toBe(200);
    // The user's own edit (2001) is not a plugin's: only the plugin's change is there.
    expect(audit.body.results).toEqual([
      {
        id: expect.any(Number),
        action: 'update-risk',
        risk_id: root,
        risk_type: 'home',
        username: 'agent@agency.test',
        plugin: { id: pluginId, name: 'Roof helper' },
        patch,
        before: { roof_year: 2001 },
        after: { roof_year: 2024 },
        created_at: expect.any(String),
      },
    ]);
    // A plugin change that changes nothing writes nothing.
    await agent.put(
      `/quote/risks/${root}/`,
      { risk_state: { field_answers: { roof_year: 2024 } }, plugin_patch: patch },
      { 'x-atrium-plugin': pluginId },
    );
    expect((await agent.get(`/quote/${q.quote_number}/audit/`)).body.results).toHaveLength(1);
  });

  it('records a plugin’s added and removed risks, and nothing when the change is refused', async () => {
    const pluginId = await register({ name: 'Jewellery', enabled: true });
    const agent = await api('agent@agency.test');
    const q = await homeQuote(agent);
    const root = q.risk_quote.id as number;
    const mark = { 'x-atrium-plugin': pluginId };
    const article = await agent.post(
      '/quote/risks/',
      { quote: q.quote_number, parent_risk_quote: root, risk_type_name: 'scheduled_article' },
      mark,
    );
    expect(article.status).toBe(201);
    // Refused answers: the save rolls back, and its audit entry with it.
    const refused = await agent.put(
      `/quote/risks/${article.body.id}/`,
      {
        risk_state: { field_answers: { appraised_value: 'lots' } },
        plugin_patch: [{ op: 'add', path: '/field_answers/appraised_value', value: 'lots' }],
      },
      mark,
    );
    expect(refused.status).toBe(400);
    expect((await agent.delete(`/quote/risks/${article.body.id}/`, mark)).status).toBe(204);
    const audit = await agent.get(`/quote/${q.quote_number}/audit/`);
    expect(audit.body.results.map((e: Json) => [e.action, e.risk_type, e.risk_id, e.plugin.name])).toEqual([
      ['remove-risk', 'scheduled_article', article.body.id, 'Jewellery'],
      ['create-risk', 'scheduled_article', article.body.id, 'Jewellery'],
    ]);
  });

  it('refuses a call for a plugin that is unknown, disabled or not granted the change, and a stray patch', async () => {
    const disabled = await register({ name: 'Sleeping' });
    const readOnly = await register({ name: 'Reader', enabled: true, capabilities: ['read-context'] });
    const agent = await api('agent@agency.test');
    const q = await homeQuote(agent);
    const root = q.risk_quote.id as number;
    const body = { risk_state: { field_answers: { roof_year: 2010 } } };
    const put = (headers?: Record<string, string>, extra: Json = {}) =>
      agent.put(`/quote/risks/${root}/`, { ...body, ...extra }, headers);
    const notId = await put({ 'x-atrium-plugin': 'not-an-id' });
    expect(notId).toMatchObject({ status: 400 });
    expect(JSON.stringify(notId.body)).toContain('X-Atrium-Plugin must name a plugin record by its id.');
    const missing = await put({ 'x-atrium-plugin': '00000000-0000-4000-8000-000000000000' });
    expect(JSON.stringify(missing.body)).toContain('does not exist');
    const sleeping = await put({ 'x-atrium-plugin': disabled });
    expect(JSON.stringify(sleeping.body)).toContain('Sleeping is not enabled.');
    const reader = await put({ 'x-atrium-plugin': readOnly });
    expect(reader.status).toBe(400);
    expect(JSON.stringify(reader.body)).toContain('Reader may not do this');
    const stray = await put(undefined, {
      plugin_patch: [{ op: 'replace', path: '/field_answers/roof_year', value: 1 }],
    });
    expect(stray.status).toBe(400);
    expect(JSON.stringify(stray.body)).toContain('plugin_patch is sent only with the X-Atrium-Plugin header.');
    // Nothing was saved by the refused calls.
    const risk = await agent.get(`/quote/risks/${root}/`);
    expect(risk.body.risk_state.field_answers.roof_year ?? null).toBeNull();
    expect((await agent.get(`/quote/${q.quote_number}/audit/`)).body.results).toEqual([]);
  });

  it('records a plugin’s API request that changes a risk (api-write), without a patch', async () => {
    const pluginId = await register({ name: 'Requester', enabled: true, capabilities: ['api-write'] });
    const agent = await api('agent@agency.test');
    const q = await homeQuote(agent);
    const root = q.risk_quote.id as number;
    const saved = await agent.put(
      `/quote/risks/${root}/`,
      { risk_state: { field_answers: { year_built: 1990 } } },
      { 'x-atrium-plugin': pluginId },
    );
    expect(saved.status).toBe(200);
    const [entry] = (await agent.get(`/quote/${q.quote_number}/audit/`)).body.results;
    expect(entry).toMatchObject({
      action: 'update-risk',
      plugin: { id: pluginId, name: 'Requester' },
      patch: null,
      before: { year_built: null },
      after: { year_built: 1990 },
    });
  });

  it('keeps the audit to whoever may read the quote', async () => {
    const agent = await api('agent@agency.test');
    const q = await homeQuote(agent);
    const adjuster = await api('adjuster@atrium.test');
    expect((await adjuster.get(`/quote/${q.quote_number}/audit/`)).status).toBe(403);
    expect((await agent.get('/quote/Q-NOPE/audit/')).status).toBe(404);
    expect((await fetch(`${server.url}/api/quote/${q.quote_number}/audit/`)).status).toBe(401);
  });
});
