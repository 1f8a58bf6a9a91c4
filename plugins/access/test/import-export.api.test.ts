import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer } from './access-test-server.js';

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

const exportFile = async (format?: string) =>
  server.admin.get(`/api/access/export${format ? `?file_format=${format}` : ''}`);
const importJson = (document: unknown) => server.admin.post('/api/access/import', document);
const importMultipart = (content: string, filename: string, field = 'file') => {
  const form = new FormData();
  form.append('note', 'not the file');
  form.append(
    field,
    new Blob([content], { type: filename.endsWith('.csv') ? 'text/csv' : 'application/json' }),
    filename,
  );
  return server.admin.send('POST', '/api/access/import', { body: form });
};
const emptyDocument = () => ({
  format: 'atrium-access',
  format_version: 1,
  roles: [] as unknown[],
  policies: [] as unknown[],
  policy_assignments: [] as unknown[],
  role_user_name_assignments: [] as unknown[],
  role_group_name_assignments: [] as unknown[],
});
const count = async (path: string) => (await (await server.admin.get(path)).json()).count as number;

describe('export', () => {
  it('downloads everything as JSON with a file name', async () => {
    const response = await exportFile();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="atrium-access-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const document = await response.json();
    expect(document).toMatchObject({ format: 'atrium-access', format_version: 1 });
    expect(document.roles).toContainEqual({ name: 'Claims Adjuster', gen2_role: 'claims_adjuster' });
    expect(document.policies).toHaveLength(8);
    expect(document.policy_assignments).toContainEqual({ policy: 'Full access', role: 'Administrator' });
    expect(document.role_user_name_assignments).toContainEqual({ user_name: 'multi@atrium.test', role: 'Underwriter' });
    expect(document.role_group_name_assignments).toEqual([{ group_name: 'Administrators', role: 'Administrator' }]);
  });

  it('downloads CSV, one record a row', async () => {
    const response = await exportFile('csv');
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(/filename="atrium-access-.*\.csv"/);
    const text = await response.text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('record,name,description,version,type,gen2_role,statements,policy,role,user_name,group_name');
    expect(lines).toContain('role,Administrator,,,,admin,,,,,');
    expect(lines).toContain('policy_assignment,,,,,,,Full access,Administrator,,');
    expect(text).toContain('"[{""sid"":""Everything""');
  });

  it('refuses an unknown format', async () => {
    expect(await pointersOf(await exportFile('xml'))).toEqual(['?file_format']);
  });
});

describe('import', () => {
  it('restores an export: what was changed or removed comes back, nothing is duplicated', async () => {
    const custom = await (
      await server.admin.post('/api/access/policies', {
        name: 'Round trip',
        statements: [{ effect: 'allow', actions: ['read'], resources: ['notes:*'] }],
      })
    ).json();
    await server.admin.post('/api/access/roles', { name: 'Round tripper', gen2_role: 'rt' });
    await server.admin.post('/api/access/policy-assignments', { policy_id: custom.id, role: 'Round tripper' });
    await server.admin.post('/api/access/role-user-name-assignments', {
      user_name: 'rt@atrium.test',
      role: 'Round tripper',
    });
    const saved = await (await exportFile()).json();

    await server.admin.patch(`/api/access/policies/${custom.id}`, { statements: [] });
    const assignments = await (
      await server.admin.get('/api/access/role-user-name-assignments?user_name=rt@atrium.test')
    ).json();
    await server.admin.delete(`/api/access/role-user-name-assignments/${assignments.results[0].id}`);

    const response = await importJson(saved);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      imported: {
        roles: { created: 0, updated: 0, unchanged: 8 },
        policies: { created: 0, updated: 1, unchanged: 8 },
        policy_assignments: { created: 0, updated: 0, unchanged: 15 },
        role_user_name_assignments: { created: 1, updated: 0, unchanged: 11 },
        role_group_name_assignments: { created: 0, updated: 0, unchanged: 1 },
      },
    });
    expect((await (await server.admin.get(`/api/access/policies/${custom.id}`)).json()).statements).toEqual(
      custom.statements,
    );
    const rt = await (
      await server
        .as('rt@atrium.test')
        .post('/api/access/evaluations', { requests: [{ resource: 'notes:note', action: 'read' }] })
    ).json();
    expect(rt.results[0].evaluation.allowed).toBe(true);
  });

  it('creates new roles, policies and assignments, by name', async () => {
    const document = {
      ...emptyDocument(),
      roles: [{ name: 'Imported role', gen2_role: null }],
      policies: [
        {
          name: 'Imported policy',
          statements: [{ effect: 'allow', actions: ['ViewModule'], resources: ['ui:reports'] }],
        },
      ],
      policy_assignments: [
        { policy: 'Imported policy', role: 'Imported role' },
        { policy: 'Signed-in basics', role: 'imported ROLE' },
      ],
      role_user_name_assignments: [{ user_name: 'Imported@Atrium.test', role: 'Imported role' }],
      role_group_name_assignments: [{ group_name: 'Importers', role: 'Imported role' }],
    };
    const response = await importJson(document);
    expect(response.status).toBe(200);
    expect((await response.json()).imported).toMatchObject({
      roles: { created: 1 },
      policies: { created: 1 },
      policy_assignments: { created: 2 },
    });
    const policy = (await (await server.admin.get('/api/access/policies?name=Imported')).json()).results[0];
    expect(policy).toMatchObject({ name: 'Imported policy', version: '0.0.0', description: '', type: 'custom' });
    const answers = await (
      await server.as('imported@atrium.test').post('/api/access/evaluations', {
        requests: [
          { resource: 'ui:reports', action: 'ViewModule' },
          { resource: 'ui:my-account', action: 'ViewModule' },
        ],
      })
    ).json();
    expect(answers.results.map((r: { evaluation: { allowed: boolean } }) => r.evaluation.allowed)).toEqual([
      true,
      true,
    ]);
  });

  it('changes nothing when any part of the file is wrong', async () => {
    const before = await (await exportFile()).json();
    const document = {
      ...emptyDocument(),
      roles: [{ name: 'Half imported' }],
      policies: [{ name: 'Half imported policy', statements: [] }],
      role_user_name_assignments: [
        { user_name: 'half@atrium.test', role: 'Half imported' },
        { user_name: 'half@atrium.test', role: 'No such role' },
      ],
    };
    const response = await importJson(document);
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual([
      {
        detail: "Role 'No such role' is neither in the file nor here.",
        pointer: '/role_user_name_assignments/1/role',
        code: 'not_found',
      },
    ]);
    const after = await (await exportFile()).json();
    expect({ ...after, exported_at: '' }).toEqual({ ...before, exported_at: '' });
  });

  it('points into the file at every problem of its shape', async () => {
    const response = await importJson({
      ...emptyDocument(),
      extra: 1,
      roles: [{ name: 'A' }, { name: 'a' }, { title: 'B' }],
      policies: [{ name: 'P', statements: [{ sid: 'S', effect: 'maybe', actions: ['read'], resources: ['x'] }] }],
      policy_assignments: 'none',
    });
    expect(response.status).toBe(400);
    expect(await pointersOf(response)).toEqual([
      '/extra',
      '/roles/1/name',
      '/roles/2/title',
      '/roles/2/name',
      '/policies/0/statements/0/effect',
      '/policy_assignments',
    ]);
    expect(await pointersOf(await importJson({ ...emptyDocument(), format: 'other', format_version: 2 }))).toEqual([
      '/format',
      '/format_version',
    ]);
    expect(await pointersOf(await importJson([1]))).toEqual(['']);
  });

  it('never writes system policies', async () => {
    const notHere = await importJson({
      ...emptyDocument(),
      policies: [{ name: 'Foreign system policy', type: 'system', statements: [] }],
    });
    expect(await pointersOf(notHere)).toEqual(['/policies/0/type']);
    const clash = await importJson({ ...emptyDocument(), policies: [{ name: 'full ACCESS', statements: [] }] });
    expect((await clash.json()).errors[0]).toMatchObject({
      pointer: '/policies/0/name',
      code: 'system_policy_read_only',
    });
    const same = await importJson({
      ...emptyDocument(),
      policies: [{ name: 'Full access', type: 'system', statements: [] }],
    });
    expect((await same.json()).imported.policies).toEqual({ created: 0, updated: 0, unchanged: 1 });
    const full = await (await server.admin.get('/api/access/policies?name=full%20access')).json();
    expect(full.results[0].statements).toEqual([
      { sid: 'Everything', effect: 'allow', actions: ['*'], resources: ['*'] },
    ]);
  });

  it('takes the file as a multipart upload, JSON or CSV', async () => {
    const json = JSON.stringify({ ...emptyDocument(), roles: [{ name: 'Uploaded JSON' }] });
    const uploaded = await importMultipart(json, 'access.json');
    expect(uploaded.status).toBe(200);
    expect((await uploaded.json()).imported.roles.created).toBe(1);

    const csv = await (await exportFile('csv')).text();
    const withNewRole = `${csv}role,Uploaded CSV,,,,csv_role,,,,,\r\nrole_user_name_assignment,,,,,,,,Uploaded CSV,csv@atrium.test,\r\n`;
    const fromCsv = await importMultipart(withNewRole, 'access.csv');
    expect(fromCsv.status).toBe(200);
    expect((await fromCsv.json()).imported).toMatchObject({
      roles: { created: 1 },
      policies: { created: 0, updated: 0 },
      role_user_name_assignments: { created: 1 },
    });
    expect(await (await server.admin.get('/api/access/users/csv@atrium.test')).json()).toEqual({
      username: 'csv@atrium.test',
      roles: ['Uploaded CSV'],
    });

    const rawCsv = await server.admin.send('POST', '/api/access/import', {
      body: 'record,name,description,version,type,gen2_role,statements,policy,role,user_name,group_name\r\nrole,Raw CSV,,,,,,,,,\r\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect((await rawCsv.json()).imported.roles.created).toBe(1);
  });

  it('refuses uploads it cannot read', async () => {
    // A file under another field name is still the file; this one is no export.
    expect(await pointersOf(await importMultipart('{}', 'access.json', 'attachment'))).toEqual([
      '/format',
      '/format_version',
    ]);
    const noFile = await (async () => {
      const form = new FormData();
      form.append('note', 'no file at all');
      return server.admin.send('POST', '/api/access/import', { body: form });
    })();
    expect(noFile.status).toBe(400);
    expect(await pointersOf(noFile)).toEqual(['?file']);
    expect((await (await importMultipart('{"format": ', 'broken.json')).json()).detail).toBe(
      'The file is not valid JSON.',
    );
    expect((await (await importMultipart('name,role\r\nx,y\r\n', 'broken.csv')).json()).code).toBe('invalid_csv');
    const badLine = await importMultipart(
      'record,name,description,version,type,gen2_role,statements,policy,role,user_name,group_name\r\nwidget,x,,,,,,,,,\r\n',
      'x.csv',
    );
    expect((await badLine.json()).detail).toBe(
      "Line 2: unknown record 'widget' (one of role, policy, policy_assignment, role_user_name_assignment, role_group_name_assignment).",
    );
    const xml = await server.admin.send('POST', '/api/access/import', {
      body: '<access/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
  });

  it('is refused to roles without the permission', async () => {
    expect((await server.as('underwriter@atrium.test').post('/api/access/import', emptyDocument())).status).toBe(403);
    expect((await server.as('underwriter@atrium.test').get('/api/access/export')).status).toBe(403);
    expect(await count('/api/access/roles?name=Uploaded')).toBe(2);
  });
});
