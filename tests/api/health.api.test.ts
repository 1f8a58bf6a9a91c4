import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

describe('GET /api/health', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 200 without authentication, naming the database in use', async () => {
    const response = await server.fetch('/api/health');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ status: 'ok', database: server.databaseKind, version: expect.any(String) });
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('keeps a sane incoming request id and replaces an unsafe one', async () => {
    const kept = await server.fetch('/api/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const replaced = await server.fetch('/api/health', { headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(replaced.headers.get('x-request-id')).not.toContain(' ');
  });

  it('answers 503 when the database does not answer', async () => {
    const other = await startTestServer({ seed: 'never' });
    try {
      // Break the pool the way a lost database breaks it: every query fails.
      await other.atrium.database.pool.end();
      const response = await other.fetch('/api/health');
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 'unavailable', database: other.databaseKind });
    } finally {
      await other.atrium.app!.close();
      await other.atrium.jobs.stop().catch(() => {});
    }
  });
});
