import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, startClaimsServer, type ClaimsTestServer } from './claims-test-server.js';

/** Creating a claim emits claims.claim.created to the outbox in the claim's own transaction. */
describe('claim events', () => {
  let server: ClaimsTestServer;
  beforeAll(async () => {
    server = await startClaimsServer();
  });
  afterAll(() => server?.close());

  const events = async () =>
    (
      await server.atrium.database.pool.query(
        `select topic, schema_id, version, triggering_user, data from core.event_outbox
          where topic = 'claims.claim.created' order by id`,
      )
    ).rows as { data: { claim_id: string } }[];

  it('emits claims.claim.created with the new claim', async () => {
    const adjuster = await server.as('adjuster@atrium.test');
    const before = (await events()).length;
    const response = await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Hail on the roof' }));
    expect(response.status).toBe(201);
    const created = (await response.json()) as { data: { id: string } };
    const rows = await events();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toEqual({
      topic: 'claims.claim.created',
      schema_id: 'claims.claim',
      version: '1.0.0',
      triggering_user: 'adjuster@atrium.test',
      data: {
        claim_id: created.data.id,
        claim_number: expect.any(String),
        status: 'draft',
        policy_number: null,
        created_by: 'adjuster@atrium.test',
      },
    });
  });

  it('emits nothing when the claim is refused', async () => {
    const adjuster = await server.as('adjuster@atrium.test');
    const before = (await events()).length;
    const response = await adjuster('POST', '/claims/', doc('claim', { status: 'open' }));
    expect(response.status).toBe(400);
    expect(await events()).toHaveLength(before);
  });
});
