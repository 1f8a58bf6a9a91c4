import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import uiPlugins from '../server/plugin.js';

type Doc = { data: { id: string; attributes: Record<string, unknown> } };

/** Plugin records over real HTTP: CRUD, the content-XOR-files rule, uploads, enable, permissions. */
describe('UI plugin records', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, uiPlugins] });
  });
  afterAll(() => server?.close());

  const jsonapi = (user: string) => as(server, user, { base: '/api/integrations', mediaType: 'jsonapi' });
  const plain = (user: string) => as(server, user, { base: '/api/integrations' });
  const doc = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'plugin', id, attributes } });
  const fileRecord = {
    name: 'Flood surcharge',
    plugin_slots: [{ slot_name: 'quote:risk-edit:button-row', plugin_file_path: 'index.html' }],
    configuration: { surcharge: 25 },
  };

  it('registers a plugin, uploads its file to storage, enables it and removes it', async () => {
    const admin = await jsonapi('admin@atrium.test');
    const created = await admin.post('/plugins/', doc(fileRecord));
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as Doc;
    expect(data.attributes).toMatchObject({ name: 'Flood surcharge', enabled: false, files: [] });
    // The default grant is what the previous portal's plugins could do; the administrator edits it.
    expect(data.attributes.capabilities).toEqual(['read-context', 'update-risk', 'create-and-update-risk', 'toast']);
    const granted = await admin.patch(
      `/plugins/${data.id}`,
      doc({ capabilities: ['api-read', 'toast', 'navigate'] }, data.id),
    );
    expect(((await granted.json()) as Doc).data.attributes.capabilities).toEqual(['toast', 'navigate', 'api-read']);
    const schema = { type: 'object', properties: { surcharge: { type: 'number' } } };
    const withSchema = await admin.patch(`/plugins/${data.id}`, doc({ configuration_schema: schema }, data.id));
    expect(((await withSchema.json()) as Doc).data.attributes.configuration_schema).toEqual(schema);

    const html = '<!doctype html><script src="app.js"></script>';
    const upload = await (
      await plain('admin@atrium.test')
    ).post(`/plugins/${data.id}/files`, {
      path: 'index.html',
      content_type: 'text/html',
      content: html,
    });
    expect(upload.status).toBe(200);
    const { rows } = await server.atrium.database.pool.query('select storage_key from ui_plugins.plugin_file');
    const stored = await server.atrium.storage.get(rows[0].storage_key);
    expect(stored?.size).toBe(html.length);

    const enabled = await admin.patch(`/plugins/${data.id}`, doc({ enabled: true }, data.id));
    expect(enabled.status).toBe(200);
    expect(((await enabled.json()) as Doc).data.attributes).toMatchObject({
      enabled: true,
      files: [{ path: 'index.html', content_type: 'text/html', size: html.length }],
    });
    // Served to the sandboxed iframe without the token, under the sandbox CSP; only while enabled.
    const served = await fetch(`${server.url}/api/integrations/plugins/${data.id}/files/index.html`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(html);
    expect(served.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(served.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect((await fetch(`${server.url}/api/integrations/plugins/${data.id}/files/other.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/integrations/plugins/${data.id}/files/..%2Fx`)).status).toBe(400);
    await admin.patch(`/plugins/${data.id}`, doc({ enabled: false }, data.id));
    expect((await fetch(`${server.url}/api/integrations/plugins/${data.id}/files/index.html`)).status).toBe(404);

    const list = (await (await admin.get('/plugins/')).json()) as { data: Doc['data'][] };
    expect(list.data.map((p) => p.id)).toEqual([data.id]);

    expect((await admin.delete(`/plugins/${data.id}`)).status).toBe(204);
    expect(await server.atrium.storage.head(rows[0].storage_key)).toBeNull();
    expect((await admin.get(`/plugins/${data.id}`)).status).toBe(404);
  });

  it('serves a dev-harness preview under the sandbox CSP, by its token only', async () => {
    const admin = await plain('admin@atrium.test');
    const res = await admin.post('/plugins/previews', {
      content: '<script src="https://cdn.example/britecore-ui-plugins.js"></script>',
    });
    expect(res.status).toBe(201);
    const { src } = (await res.json()) as { src: string };
    const served = await fetch(`${server.url}${src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    expect(await served.text()).toContain('/api/integrations/plugins/sdk/britecore-ui-plugins.js');
    const other = src.replace(/previews\/[^/]+/, `previews/${'A'.repeat(32)}`);
    expect((await fetch(`${server.url}${other}`)).status).toBe(404);
    expect((await admin.post('/plugins/previews', { content: '' })).status).toBe(400);
  });

  it('validates the record and the upload with 400s, and refuses other roles with 403', async () => {
    const admin = await jsonapi('admin@atrium.test');
    const bad = async (attributes: Record<string, unknown>, fragment: string) => {
      const response = await admin.post('/plugins/', doc(attributes));
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(fragment);
    };
    await bad({ ...fileRecord, content: '<p>x</p>' }, 'not both');
    await bad({ ...fileRecord, plugin_slots: [{ slot_name: 'nowhere' }] }, 'There is no such slot.');
    await bad({ ...fileRecord, configuration: [1] }, 'JSON object');
    await bad({ ...fileRecord, capabilities: ['read-token'] }, 'There is no such capability.');
    await bad({ ...fileRecord, configuration_schema: 'object' }, 'The configuration schema must be a JSON object.');
    await bad({ ...fileRecord, base_url: 'http://example.com' }, 'https');
    await bad({ ...fileRecord, plugin_slots: [{ slot_name: 'quote:risk-edit:button-row' }] }, 'file path');

    // Inline content with the previous portal's slot name (an alias) is a valid record.
    const inline = await admin.post(
      '/plugins/',
      doc({
        name: 'Legacy',
        plugin_slots: [{ slot_name: 'britequote:risk-edit:button-row' }],
        configuration: {},
        content: '<p>hi</p>',
      }),
    );
    expect(inline.status).toBe(201);
    const { data } = (await inline.json()) as Doc;
    const upload = await (
      await plain('admin@atrium.test')
    ).post(`/plugins/${data.id}/files`, {
      path: '../etc/passwd',
      content_type: 'text/html',
      content: 'x',
    });
    expect(upload.status).toBe(400);
    const exe = await (
      await plain('admin@atrium.test')
    ).post(`/plugins/${data.id}/files`, {
      path: 'a.exe',
      content_type: 'application/octet-stream',
      content: 'x',
    });
    expect(exe.status).toBe(400);

    const agent = await jsonapi('agent@agency.test');
    expect((await agent.get('/plugins/')).status).toBe(403);
    expect((await (await plain('agent@agency.test')).post('/plugins/previews', { content: '<p>x</p>' })).status).toBe(
      403,
    );
    expect((await agent.post('/plugins/', doc(fileRecord))).status).toBe(403);
  });

  it('checks the configuration against the record’s JSON Schema, with a pointer per error', async () => {
    const admin = await jsonapi('admin@atrium.test');
    const schema = {
      type: 'object',
      required: ['year'],
      properties: { year: { type: 'integer', minimum: 1900 }, contact: { type: 'string', format: 'email' } },
      additionalProperties: false,
    };
    const refused = await admin.post(
      '/plugins/',
      doc({
        ...fileRecord,
        configuration: { year: 'soon', contact: 'nobody', colour: 'red' },
        configuration_schema: schema,
      }),
    );
    expect(refused.status).toBe(400);
    const { errors } = (await refused.json()) as { errors: { detail: string; source: { pointer: string } }[] };
    expect(errors.map((e) => [e.source.pointer, e.detail])).toEqual([
      ['/data/attributes/configuration', 'The configuration may not have colour.'],
      ['/data/attributes/configuration/year', 'year must be integer.'],
      ['/data/attributes/configuration/contact', 'contact must match format "email".'],
    ]);
    const missing = await admin.post(
      '/plugins/',
      doc({ ...fileRecord, configuration: {}, configuration_schema: schema }),
    );
    expect(((await missing.json()) as { errors: { source: { pointer: string } }[] }).errors[0]!.source.pointer).toBe(
      '/data/attributes/configuration/year',
    );

    // A schema that is not one is refused itself (and nothing is fetched for a $ref).
    const notSchema = await admin.post('/plugins/', doc({ ...fileRecord, configuration_schema: { type: 'objekt' } }));
    expect(notSchema.status).toBe(400);
    expect(JSON.stringify(await notSchema.json())).toContain('/data/attributes/configuration_schema/type');
    const remote = await admin.post(
      '/plugins/',
      doc({ ...fileRecord, configuration_schema: { $ref: 'https://schemas.example.com/plugin.json' } }),
    );
    expect(remote.status).toBe(400);
    expect(JSON.stringify(await remote.json())).toContain('The configuration schema cannot be used');
    // A schema that recurses without end, or answers asynchronously, is refused rather than a 500 or a pass.
    for (const [unusable, why] of [
      [{ $ref: '#' }, 'it refers to itself without end.'],
      [{ $async: true, type: 'object' }, 'asynchronous schemas ($async) are not supported.'],
    ] as const) {
      const response = await admin.post('/plugins/', doc({ ...fileRecord, configuration_schema: unusable }));
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(why);
    }

    // PATCH checks the record as it would be: a new configuration against the stored schema, and a new schema
    // against the stored configuration.
    const created = await admin.post(
      '/plugins/',
      doc({ ...fileRecord, configuration: { year: 2024 }, configuration_schema: schema }),
    );
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as Doc;
    expect((await admin.patch(`/plugins/${data.id}`, doc({ configuration: { year: 1066 } }, data.id))).status).toBe(
      400,
    );
    const tighter = { ...schema, properties: { ...schema.properties, year: { type: 'integer', minimum: 2030 } } };
    expect((await admin.patch(`/plugins/${data.id}`, doc({ configuration_schema: tighter }, data.id))).status).toBe(
      400,
    );
    expect((await admin.patch(`/plugins/${data.id}`, doc({ configuration: { year: 2025 } }, data.id))).status).toBe(
      200,
    );
    expect((await admin.patch(`/plugins/${data.id}`, doc({ enabled: true }, data.id))).status).toBe(200);
  });

  it('keeps the palette commands a record offers, and refuses malformed ones', async () => {
    const admin = await jsonapi('admin@atrium.test');
    const commands = [
      { id: 'check-roofs', title: 'Check roof ages', shortcut: 'R A', keywords: ['roof'] },
      { id: 'quotes', title: 'Open quotes', route: { name: 'quote:quotes' } },
    ];
    const created = await admin.post(
      '/plugins/',
      doc({ ...fileRecord, palette_commands: commands, palette_search: true }),
    );
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as Doc;
    expect(data.attributes).toMatchObject({ palette_commands: commands, palette_search: true });
    const plainRecord = await admin.post('/plugins/', doc(fileRecord));
    expect(((await plainRecord.json()) as Doc).data.attributes).toMatchObject({
      palette_commands: [],
      palette_search: false,
    });

    const bad = async (palette_commands: unknown, fragment: string) => {
      const response = await admin.post('/plugins/', doc({ ...fileRecord, palette_commands }));
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(fragment);
    };
    await bad([{ id: 'a b', title: 'x' }], 'A command id is up to 64 letters');
    await bad([{ id: 'a', title: '' }], 'This field is required.');
    await bad(
      [
        { id: 'a', title: 'x' },
        { id: 'a', title: 'y' },
      ],
      'Each palette command needs its own id.',
    );
    await bad([{ id: 'a', title: 'x', route: { name: 'https://evil.test/' } }], 'A route is named like quote:page.');
    await bad(
      Array.from({ length: 11 }, (_, i) => ({ id: `c${i}`, title: 'x' })),
      'A plugin offers at most 10 palette commands.',
    );
  });
});
