import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredIdentityRecords } from '../server/identity-housekeeping.js';
import { PasswordHasher } from '../server/password-hasher.js';
import { refreshTokenFamily, signInChallenge, signInThrottle, user } from '../server/tables.js';
import { startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('housekeeping and the legacy-user migration hook', () => {
  let server: IdentityTestServer;
  const migrated: string[] = [];
  beforeAll(async () => {
    server = await startIdentityServer({
      plugin: {
        // The identity provider's user-migration trigger: a legacy system vouches for the password.
        async migrateUnknownUser({ username, password }) {
          migrated.push(username);
          if (username !== 'legacy@atrium.test' || password !== 'Legacy-Password-1') return false;
          const now = server.clock.now();
          await server.atrium.database.db.insert(user).values({
            username,
            email: username,
            name: 'Lee Legacy',
            passwordHash: await new PasswordHasher().hash(password),
            roles: ['Underwriter'],
            createdAt: now,
            updatedAt: now,
          });
          return true;
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs in a user the legacy system vouches for, once; others answer like a wrong password', async () => {
    expect((await server.signIn('legacy@atrium.test', 'Legacy-Password-1')).body.status).toBe('AUTHENTICATED');
    expect((await server.signIn('legacy@atrium.test', 'Legacy-Password-1')).body.status).toBe('AUTHENTICATED');
    expect(migrated).toEqual(['legacy@atrium.test']);
    const refused = await server.signIn('unknown@atrium.test', 'Legacy-Password-1');
    expect(refused.body).toMatchObject({ code: 'NotAuthorizedException', detail: 'Incorrect username or password.' });
  });

  it('purges ended sessions, spent challenges and idle throttles a day after they end', async () => {
    const db = server.atrium.database.db;
    const rows = async () => ({
      challenges: (await db.select({ n: count() }).from(signInChallenge))[0]!.n,
      throttles: (await db.select({ n: count() }).from(signInThrottle))[0]!.n,
      families: (await db.select({ n: count() }).from(refreshTokenFamily))[0]!.n,
    });
    await server.signIn('mfa@atrium.test');
    await server.signIn('ghost@atrium.test', 'Wrong-password-1');
    await server.tokensFor('adjuster@atrium.test');
    const before = await rows();
    expect(before.challenges).toBeGreaterThan(0);
    expect(before.throttles).toBeGreaterThan(0);

    await purgeExpiredIdentityRecords(db, server.clock.now());
    expect(await rows()).toEqual(before);

    server.clock.advanceSeconds(2 * 24 * 60 * 60);
    await purgeExpiredIdentityRecords(db, server.clock.now());
    expect(await rows()).toEqual({ challenges: 0, throttles: 0, families: 0 });
  });
});
