import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@atrium/sdk/server';
import { AccessState } from '../server/access-state.js';
import { createAccessEvaluator } from '../server/access-evaluator.js';
import { startAccessServer, type AccessTestServer } from './access-test-server.js';

/**
 * Several server processes on one database: a change written through one is seen by another's
 * evaluator once it next reads the revision (at most `revisionCheckMs` later, in the background).
 */
let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

describe('a second process', () => {
  it("notices another process's change within the revision check interval", async () => {
    let now = 1_000_000;
    const otherProcess = new AccessState(server.atrium.database.db as unknown as Database, {
      revisionCheckMs: 1000,
      now: () => now,
    });
    const evaluator = createAccessEvaluator(otherProcess);
    const underwriter = {
      kind: 'user' as const,
      subject: 'u',
      username: 'underwriter@atrium.test',
      effectiveRole: 'Underwriter',
      roles: ['Underwriter'],
    };
    const question = { resource: 'rules:rule', action: 'read' };
    expect(await evaluator.evaluate(underwriter, question)).toEqual({
      allowed: false,
      reason: 'no-matching-statement',
    });

    const policy = await (
      await server.admin.post('/api/access/policies', {
        name: 'Rules reader',
        statements: [{ effect: 'allow', actions: ['read'], resources: ['rules:*'] }],
      })
    ).json();
    await server.admin.post('/api/access/policy-assignments', { policy_id: policy.id, role: 'Underwriter' });

    // Within the interval the other process answers from memory, without a database read…
    const cached = evaluator.evaluate(underwriter, question);
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toEqual({ allowed: false, reason: 'no-matching-statement' });
    // …and past it, it reads the revision in the background (answering from memory meanwhile, never
    // waiting for the database), sees the change and reloads for the next evaluation.
    now += 1000;
    const during = evaluator.evaluate(underwriter, question);
    expect(during).not.toBeInstanceOf(Promise);
    await otherProcess.get();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect
      .poll(async () => evaluator.evaluate(underwriter, question))
      .toEqual({
        allowed: true,
        reason: 'allowed-by-statement',
      });
    // An unchanged revision keeps the compiled policies.
    const before = await otherProcess.get();
    now += 5000;
    expect(await otherProcess.get()).toBe(before);
  });
});
