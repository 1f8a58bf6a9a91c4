import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import uiPlugins from '../server/plugin.js';

type Listed = { data: { id: string; name: string; slot_name: string; src: string; configuration: unknown }[] };

/** What the slot runtime loads: only enabled plugins, per slot, aliases resolved, for every role. */
describe('Enabled UI plugins for the slot runtime', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, uiPlugins] });
  });
  afterAll(() => server?.close());

  const register = async (attributes: Record<string, unknown>) => {
    const admin = await as(server, 'admin@atrium.test', { base: '/api/integrations', mediaType: 'jsonapi' });
    const res = await admin.post('/plugins/', { data: { type: 'plugin', attributes } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  it('lists enabled plugins of a slot for an agent, with the file the iframe opens', async () => {
    const inline = await register({
      name: 'Roof check',
      plugin_slots: [{ slot_name: 'britequote:risk-edit:button-row' }],
      configuration: { threshold: 3 },
      content: '<!doctype html><p>roof</p>',
      enabled: true,
    });
    const file = await register({
      name: 'Flood',
      plugin_slots: [{ slot_name: 'quote:risk-edit:button-row', plugin_file_path: 'app/index.html' }],
      configuration: {},
      enabled: true,
      capabilities: ['navigate'],
    });
    await register({
      name: 'Disabled',
      plugin_slots: [{ slot_name: 'quote:risk-edit:button-row' }],
      configuration: {},
      content: '<p>off</p>',
    });
    const agent = await as(server, 'agent@agency.test', { base: '/api/integrations' });
    const res = await agent.get('/plugins/enabled?slot=quote:risk-edit:button-row');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Listed;
    expect(data).toEqual([
      {
        id: file,
        name: 'Flood',
        slot_name: 'quote:risk-edit:button-row',
        slot_label: 'Quote · risk edit · button row',
        registered_slot_name: 'quote:risk-edit:button-row',
        src: `/api/integrations/plugins/${file}/files/app/index.html`,
        configuration: {},
        capabilities: ['navigate'],
      },
      {
        id: inline,
        name: 'Roof check',
        slot_name: 'quote:risk-edit:button-row',
        slot_label: 'Quote · risk edit · button row',
        registered_slot_name: 'britequote:risk-edit:button-row',
        src: `/api/integrations/plugins/${inline}/files/index.html`,
        configuration: { threshold: 3 },
        capabilities: ['read-context', 'update-risk', 'create-and-update-risk', 'toast'],
      },
    ]);
    // The full records stay an administrator's.
    expect((await agent.get('/plugins/')).status).toBe(403);
  });

  it('refuses an unknown slot with 400 and an anonymous caller with 401', async () => {
    const agent = await as(server, 'agent@agency.test', { base: '/api/integrations' });
    expect((await agent.get('/plugins/enabled?slot=nowhere:at:all')).status).toBe(400);
    expect((await fetch(`${server.url}/api/integrations/plugins/enabled`)).status).toBe(401);
  });

  it('lists what enabled plugins offer in the palette, for every role, and nothing of disabled ones', async () => {
    const commands = [{ id: 'summary', title: 'Summarise the quote', shortcut: 'S Q' }];
    const offering = await register({
      name: 'Palette helper',
      plugin_slots: [{ slot_name: 'quote:risk-edit:button-row', plugin_file_path: 'main.html' }],
      configuration: { depth: 2 },
      enabled: true,
      palette_commands: commands,
      palette_search: true,
    });
    await register({
      name: 'Dormant helper',
      plugin_slots: [{ slot_name: 'quote:risk-edit:button-row' }],
      configuration: {},
      content: '<p>off</p>',
      palette_commands: [{ id: 'x', title: 'Never shown' }],
    });
    for (const user of ['agent@agency.test', 'adjuster@atrium.test']) {
      const client = await as(server, user, { base: '/api/integrations' });
      const res = await client.get('/plugins/enabled/palette');
      expect(res.status).toBe(200);
      // Plugins that offer nothing in the palette (the earlier test's) are not listed.
      expect(((await res.json()) as { data: unknown[] }).data).toEqual([
        {
          id: offering,
          name: 'Palette helper',
          src: `/api/integrations/plugins/${offering}/files/main.html`,
          configuration: { depth: 2 },
          capabilities: ['read-context', 'update-risk', 'create-and-update-risk', 'toast'],
          commands,
          search: true,
        },
      ]);
    }
    expect((await fetch(`${server.url}/api/integrations/plugins/enabled/palette`)).status).toBe(401);
  });
});
