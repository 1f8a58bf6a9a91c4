import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_RATE_LIMITS } from '../server/sign-in-rate-limits.js';
import { DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

/**
 * Issue 14, hole 7: throttling by source. Requests come from different loopback addresses
 * (127.0.0.x are all this machine on Linux), so the server sees different sources.
 */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

function postFrom(server: IdentityTestServer, source: string, path: string, body: unknown): Promise<Answer> {
  const url = new URL(path, server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: source,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('throttling by source', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer({ signInRateLimits: DEFAULT_SIGN_IN_RATE_LIMITS });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stops password spraying with rotating usernames from one address, and only that address', async () => {
    const sprayer = '127.0.0.2';
    const limit = DEFAULT_SIGN_IN_RATE_LIMITS.perSourcePerMinute;
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let i = 0; i < limit + 3; i++) {
      const answer = await postFrom(server, sprayer, '/api/identity/sign-in', {
        username: `sprayed-${i}@atrium.test`,
        password: 'Winter2026!',
      });
      statuses.push(answer.status);
      if (answer.status === 429) refused ??= answer;
    }
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(400));
    expect(statuses.slice(limit)).toEqual([429, 429, 429]);
    expect(refused!.body).toMatchObject({
      code: 'LimitExceededException',
      detail: 'Attempt limit exceeded, please try after some time.',
    });
    const retryAfter = Number(refused!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The other throttled routes share the source's budget: MFA answers and password resets too.
    const mfa = await postFrom(server, sprayer, '/api/identity/challenges/mfa', {
      username: 'mfa@atrium.test',
      session: 'x'.repeat(43),
      code: '123456',
    });
    expect(mfa.status).toBe(429);
    const reset = await postFrom(server, sprayer, '/api/identity/forgot-password', { username: 'admin@atrium.test' });
    expect(reset.status).toBe(429);

    // Another address is not affected.
    const other = await postFrom(server, '127.0.0.3', '/api/identity/sign-in', {
      username: 'admin@atrium.test',
      password: DEMO_PASSWORD,
    });
    expect(other.status).toBe(200);
  });

  it('a stranger guessing the administrator password locks out himself, not the administrator', async () => {
    const stranger = '127.0.0.4';
    let last: Answer | undefined;
    for (let i = 0; i < 8; i++) {
      last = await postFrom(server, stranger, '/api/identity/sign-in', {
        username: 'admin@atrium.test',
        password: `guess-${i}`,
      });
    }
    expect(last!.body).toMatchObject({ code: 'NotAuthorizedException', detail: 'Password attempts exceeded' });
    // Even the right password is refused from the stranger's address while it is locked…
    const strangerRight = await postFrom(server, stranger, '/api/identity/sign-in', {
      username: 'admin@atrium.test',
      password: DEMO_PASSWORD,
    });
    expect(strangerRight.body.detail).toBe('Password attempts exceeded');
    // …but the administrator signs in from their own address.
    const admin = await postFrom(server, '127.0.0.5', '/api/identity/sign-in', {
      username: 'admin@atrium.test',
      password: DEMO_PASSWORD,
    });
    expect(admin.status).toBe(200);
    expect(admin.body.status).toBe('AUTHENTICATED');
  });

  it('keeps the counters in PostgreSQL with DATABASE_URL, in memory on the embedded database', async () => {
    await postFrom(server, '127.0.0.6', '/api/identity/sign-in', { username: 'nobody@atrium.test', password: 'x' });
    const rows = await server.atrium.database.db.execute<{ key: string }>(
      sql`SELECT key FROM identity.rate_counter WHERE key LIKE 'rate-limit:%'`,
    );
    if (server.databaseKind === 'postgres') {
      expect(rows.rows.map((row) => row.key)).toEqual(
        expect.arrayContaining(['rate-limit:sign-in-source:127.0.0.6', 'rate-limit:sign-in-all:all']),
      );
    } else {
      expect(rows.rows).toEqual([]);
    }
  });
});
