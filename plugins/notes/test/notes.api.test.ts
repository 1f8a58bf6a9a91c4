import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import notesPlugin from '../server/plugin.js';

type NoteJson = { id: number; body: string; editable: boolean; mentions: { username: string; name: string }[] };

/** Notes on records over real HTTP as the demo users: by record, named users, the author's rights. */
describe('notes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, notesPlugin] });
  });
  afterAll(() => server?.close());

  const api = (user: string) => as(server, user, { base: '/api/notes' });
  const claim = { record_type: 'claim', record_id: 'CLM-1001', record_label: 'CLM-1001' };

  it('writes a note on a claim that the named user then sees in their notes list', async () => {
    const adjuster = await api('adjuster@atrium.test');
    const created = await adjuster.post('/notes/', {
      ...claim,
      body: 'Called the insured; photos to follow.',
      mentions: ['Underwriter@Atrium.test'],
    });
    expect(created.status).toBe(201);
    const note = (await created.json()) as NoteJson;
    expect(note).toMatchObject({
      editable: true,
      mentions: [{ username: 'underwriter@atrium.test', name: 'Uma Underwriter' }],
      author: { name: 'Casey Adjuster' },
    });

    const onClaim = await (await adjuster.get('/notes/?record_type=claim&record_id=CLM-1001')).json();
    expect(onClaim).toMatchObject({ count: 1, results: [{ id: note.id }] });
    expect((await (await adjuster.get('/notes/?record_type=claim&record_id=CLM-1002')).json()).count).toBe(0);

    const underwriter = await api('underwriter@atrium.test');
    const mine = (await (await underwriter.get('/notes/?scope=mine')).json()) as { results: NoteJson[] };
    expect(mine.results.map((n) => [n.id, n.editable])).toEqual([[note.id, false]]);
    expect((await (await underwriter.get('/notes/?scope=written')).json()).count).toBe(0);
    // Only the author changes or deletes a note.
    expect((await underwriter.patch(`/notes/${note.id}/`, { body: 'Mine now' })).status).toBe(403);
    expect((await underwriter.delete(`/notes/${note.id}/`)).status).toBe(403);

    const edited = await adjuster.patch(`/notes/${note.id}/`, { body: 'Photos received.', mentions: [] });
    expect(await edited.json()).toMatchObject({ body: 'Photos received.', mentions: [] });
    expect((await (await underwriter.get('/notes/?scope=mentioned')).json()).count).toBe(0);
    expect((await adjuster.delete(`/notes/${note.id}/`)).status).toBe(204);
    const { rows } = await server.atrium.database.pool.query(
      `select topic, data->>'record_id' as record, triggering_user from core.event_outbox where topic like 'notes.%' order by id`,
    );
    expect(rows).toEqual(
      ['notes.note.created', 'notes.note.updated', 'notes.note.deleted'].map((topic) => ({
        topic,
        record: 'CLM-1001',
        triggering_user: 'adjuster@atrium.test',
      })),
    );
    expect((await adjuster.delete(`/notes/${note.id}/`)).status).toBe(404);
  });

  it('answers 400 with the field for bad input, and 403 to roles without notes', async () => {
    const adjuster = await api('adjuster@atrium.test');
    const empty = await adjuster.post('/notes/', { ...claim, body: '   ' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain('This field is required.');
    const nobody = await adjuster.post('/notes/', { ...claim, body: 'Hi', mentions: ['nobody@atrium.test'] });
    expect(nobody.status).toBe(400);
    expect(JSON.stringify(await nobody.json())).toContain('/mentions/0');
    expect((await adjuster.post('/notes/', { ...claim, record_type: 'invoice', body: 'x' })).status).toBe(400);
    expect((await adjuster.get('/notes/')).status).toBe(400);
    const users = (await (await adjuster.get('/notes/users/?search=uma')).json()) as { username: string }[];
    expect(users.map((u) => u.username)).toContain('underwriter@atrium.test');

    const agent = await api('agent@agency.test');
    expect((await agent.get('/notes/?scope=mine')).status).toBe(403);
    expect((await agent.post('/notes/', { ...claim, body: 'x' })).status).toBe(403);
  });
});
