import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

let server: ClaimsTestServer;
let adjuster: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

describe('claims', () => {
  it('creates an FNOL draft with the next claim number from the carrier prefix', async () => {
    const first = await adjuster('POST', '/claims/', doc('claim', { loss_description: 'Kitchen fire' }));
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body.data.attributes.status).toBe('draft');
    expect(body.data.attributes.number).toMatch(/^CLM-\d{6}$/);
    expect(first.headers.get('etag')).toBe(`"claim-${body.data.id}-v1"`);
  });

  it('refuses unknown attributes with a pointer', async () => {
    const response = await adjuster('POST', '/claims/', doc('claim', { nonsense: 1 }));
    expect(response.status).toBe(400);
    expect(await pointersOf(response)).toContain('/data/attributes/nonsense');
  });

  it('answers 404 with the spec message for an unknown FNOL', async () => {
    const response = await adjuster('GET', '/claims/fnol/NOPE-1/');
    expect(response.status).toBe(404);
    expect(await detailOf(response)).toBe('FNOL NOPE-1 not found.');
  });
});
