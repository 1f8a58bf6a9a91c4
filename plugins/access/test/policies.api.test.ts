import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer } from './access-test-server.js';

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

const statements = [{ sid: 'ReadNotes', effect: 'allow', actions: ['read'], resources: ['notes:*'] }];
const create = (body: Record<string, unknown>) => server.admin.post('/api/access/policies', body);
const systemPolicyId = async () => {
  const body = await (await server.admin.get('/api/access/policies?type=system&name=full')).json();
  return body.results[0].id as number;
};

describe('policies', () => {
  it('creates a custom policy with the defaults', async () => {
    const response = await create({ name: 'Notes reader', statements });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ name: 'Notes reader', description: '', version: '0.0.0', type: 'custom', statements });
    expect(typeof body.id).toBe('number');
    expect(new Date(body.date_added).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await (await server.admin.get(`/api/access/policies/${body.id}`)).json()).toEqual(body);
  });

  it('refuses a duplicate name, in any case, with a pointer at the name', async () => {
    await create({ name: 'Duplicate me', statements });
    const response = await create({ name: 'DUPLICATE ME', statements });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([{ detail: "A policy named 'DUPLICATE ME' already exists.", pointer: '/name' }]);
  });

  it('refuses unknown fields, wrong types and missing fields with pointers', async () => {
    expect(await pointersOf(await create({ name: 'X1', statements, colour: 'red' }))).toEqual(['/colour']);
    expect(await pointersOf(await create({ name: 42, statements }))).toEqual(['/name']);
    expect(await pointersOf(await create({ name: 'X2', statements, version: '1.0' }))).toEqual(['/version']);
    expect(await pointersOf(await create({ name: 'X3' }))).toEqual(['/statements']);
    expect(await pointersOf(await create({ name: '   ', statements }))).toEqual(['/name']);
    const notJson = await server.admin.send('POST', '/api/access/policies', {
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });

  it('names the statement and its field in statement errors', async () => {
    const response = await create({
      name: 'Broken',
      statements: [
        ...statements,
        { effect: 'allow', actions: ['read'], resources: ['x'] },
        { sid: 'Pay', effect: 'permit', actions: ['pay'], resources: ['claims:payment'] },
      ],
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('invalid_statements');
    expect(body.errors).toEqual([
      {
        detail: `Statement 2 ('Pay'): effect must be 'allow' or 'deny', not "permit".`,
        pointer: '/statements/2/effect',
        code: 'invalid_value',
      },
    ]);
  });

  it('creates only custom policies', async () => {
    const response = await create({ name: 'Sneaky system', statements, type: 'system' });
    expect(response.status).toBe(400);
    expect(await pointersOf(response)).toEqual(['/type']);
    expect((await create({ name: 'Explicitly custom', statements, type: 'custom' })).status).toBe(201);
  });

  it('lists with filters, ordering and pages', async () => {
    const all = await (await server.admin.get('/api/access/policies?page_size=100')).json();
    expect(all.count).toBeGreaterThanOrEqual(7);
    const system = await (await server.admin.get('/api/access/policies?type=system&page_size=100')).json();
    expect(system.results.every((p: { type: string }) => p.type === 'system')).toBe(true);
    expect(system.results.map((p: { name: string }) => p.name)).toContain('Claims handling');
    const byName = await (await server.admin.get('/api/access/policies?name=CLAIMS&ordering=name')).json();
    expect(byName.results.map((p: { name: string }) => p.name)).toEqual(['Claims handling', 'Claims supervision']);
    const literal = await (await server.admin.get('/api/access/policies?name=%25')).json();
    expect(literal.count).toBe(0);

    const descending = await (await server.admin.get('/api/access/policies?ordering=-name&page_size=100')).json();
    const names = descending.results.map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());

    const first = await (await server.admin.get('/api/access/policies?page_size=2&ordering=id&count=true')).json();
    expect(first).toMatchObject({
      count: all.count,
      previous: null,
      next: '/api/access/policies?page_size=2&ordering=id&count=true&page=2',
    });
    expect(first.results).toHaveLength(2);
    const second = await (await server.admin.get(first.next)).json();
    expect(second.previous).toBe('/api/access/policies?page_size=2&ordering=id&count=true&page=1');
    expect(second.results[0].id).toBeGreaterThan(first.results[1].id);
    const past = await (await server.admin.get('/api/access/policies?page=999')).json();
    expect(past).toMatchObject({ results: [], next: null });
  });

  it('answers 15 a page by default', async () => {
    for (let i = 0; i < 10; i++) await create({ name: `Filler ${i}`, statements });
    const body = await (await server.admin.get('/api/access/policies')).json();
    expect(body.results).toHaveLength(15);
    expect(body.next).not.toBeNull();
  });

  it('refuses unknown orderings, filters and bad page numbers', async () => {
    const ordering = await server.admin.get('/api/access/policies?ordering=statements');
    expect(ordering.status).toBe(400);
    expect(await pointersOf(ordering)).toEqual(['?ordering']);
    expect(await pointersOf(await server.admin.get('/api/access/policies?colour=red'))).toEqual(['?colour']);
    expect(await pointersOf(await server.admin.get('/api/access/policies?page=0'))).toEqual(['?page']);
    expect(await pointersOf(await server.admin.get('/api/access/policies?page_size=10001'))).toEqual(['?page_size']);
    expect(await pointersOf(await server.admin.get('/api/access/policies?type=other'))).toEqual(['?type']);
  });

  it('answers 404 for a missing policy and 400 for an id that is not one', async () => {
    expect((await server.admin.get('/api/access/policies/999999')).status).toBe(404);
    expect((await server.admin.put('/api/access/policies/999999', { name: 'x', statements })).status).toBe(404);
    expect((await server.admin.patch('/api/access/policies/999999', { name: 'x' })).status).toBe(404);
    expect((await server.admin.delete('/api/access/policies/999999')).status).toBe(404);
    const notAnId = await server.admin.get('/api/access/policies/abc');
    expect(notAnId.status).toBe(400);
    expect(await pointersOf(notAnId)).toEqual(['?id']);
  });

  it('replaces with PUT and changes some fields with PATCH', async () => {
    const created = await (
      await create({ name: 'Editable', description: 'first', version: '1.0.0', statements })
    ).json();
    const patched = await server.admin.patch(`/api/access/policies/${created.id}`, { description: 'second' });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      name: 'Editable',
      description: 'second',
      version: '1.0.0',
      statements,
    });

    const newStatements = [{ effect: 'deny', actions: ['*'], resources: ['notes:secret'] }];
    const replaced = await server.admin.put(`/api/access/policies/${created.id}`, {
      ...created,
      name: 'Edited',
      statements: newStatements,
    });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({
      id: created.id,
      name: 'Edited',
      description: 'first',
      version: '1.0.0',
      statements: newStatements,
    });

    const defaults = await (
      await server.admin.put(`/api/access/policies/${created.id}`, { name: 'Edited', statements })
    ).json();
    expect(defaults).toMatchObject({ description: '', version: '0.0.0' });

    expect(
      await pointersOf(
        await server.admin.patch(`/api/access/policies/${created.id}`, { statements: [{ effect: 'allow' }] }),
      ),
    ).toEqual(['/statements/0/actions', '/statements/0/resources']);
    expect(
      await pointersOf(await server.admin.patch(`/api/access/policies/${created.id}`, { name: 'Claims handling' })),
    ).toEqual(['/name']);
    expect(
      await pointersOf(await server.admin.patch(`/api/access/policies/${created.id}`, { id: created.id + 1 })),
    ).toEqual(['/id']);
    expect(
      await pointersOf(await server.admin.patch(`/api/access/policies/${created.id}`, { type: 'system' })),
    ).toEqual(['/type']);
    expect(await pointersOf(await server.admin.put(`/api/access/policies/${created.id}`, { statements }))).toEqual([
      '/name',
    ]);
    // Its own name is not a duplicate.
    expect((await server.admin.patch(`/api/access/policies/${created.id}`, { name: 'EDITED' })).status).toBe(200);
  });

  it('deletes a custom policy', async () => {
    const created = await (await create({ name: 'Short-lived', statements })).json();
    expect((await server.admin.delete(`/api/access/policies/${created.id}`)).status).toBe(204);
    expect((await server.admin.get(`/api/access/policies/${created.id}`)).status).toBe(404);
  });

  it('keeps system policies read-only', async () => {
    const id = await systemPolicyId();
    const before = await (await server.admin.get(`/api/access/policies/${id}`)).json();
    for (const response of [
      await server.admin.put(`/api/access/policies/${id}`, { name: 'Mine now', statements }),
      await server.admin.patch(`/api/access/policies/${id}`, { description: 'changed' }),
      await server.admin.delete(`/api/access/policies/${id}`),
    ]) {
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({
        code: 'system_policy_read_only',
        detail: "'Full access' is a system policy: system policies cannot be changed or deleted.",
      });
    }
    expect(await (await server.admin.get(`/api/access/policies/${id}`)).json()).toEqual(before);
  });
});

describe('policies/validations', () => {
  const validate = (body: unknown) => server.admin.post('/api/access/policies/validations', body);

  it('answers valid for a policy that would save', async () => {
    expect(await (await validate({ name: 'Brand new', statements })).json()).toEqual({ valid: true, errors: [] });
    expect(await (await validate({ statements })).json()).toEqual({ valid: true, errors: [] });
  });

  it('lists every problem with its pointer, without saving', async () => {
    const response = await validate({
      name: 'Claims handling',
      version: 'one',
      colour: 'red',
      statements: [
        { sid: 'A', effect: 'allow', actions: ['read'], resources: [] },
        {
          sid: 'A',
          effect: 'deny',
          actions: ['read'],
          resources: ['x'],
          conditions: [{ attribute: 'record.amount', operator: 'lte' }],
        },
      ],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.valid).toBe(false);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '/colour',
      '/name',
      '/version',
      '/statements/0/resources',
      '/statements/1/sid',
      '/statements/1/conditions/0/value',
    ]);
    expect(body.errors[5].detail).toBe("Statement 1 ('A'): 'lte' needs a value.");
    expect((await server.admin.get('/api/access/policies?name=Brand%20new')).status).toBe(200);
    expect((await (await server.admin.get('/api/access/policies?name=Brand%20new')).json()).count).toBe(0);
  });

  it("does not count the edited policy's own name as a duplicate, and flags system policies", async () => {
    const created = await (await create({ name: 'Validated', statements })).json();
    expect(await (await validate({ id: created.id, name: 'Validated', statements })).json()).toEqual({
      valid: true,
      errors: [],
    });
    const system = await (await validate({ id: await systemPolicyId(), name: 'Full access', statements })).json();
    expect(system.errors.map((e: { code: string }) => e.code)).toEqual(['system_policy_read_only']);
  });

  it('needs statements and a JSON object', async () => {
    expect((await (await validate({ name: 'x' })).json()).errors).toEqual([
      { detail: 'Statements are required (a list).', pointer: '/statements', code: 'required' },
    ]);
    expect((await validate([1, 2])).status).toBe(400);
  });
});
