import { describe, expect, it } from 'vitest';
import type { Principal } from '@atrium/sdk/server';
import { createAccessEvaluator } from './access-evaluator.js';
import { AccessSnapshot } from './access-snapshot.js';
import type { AccessState } from './access-state.js';

const snapshot = new AccessSnapshot(
  1,
  new Map([
    ['claims adjuster', { id: 1, name: 'Claims Adjuster', gen2Role: null }],
    ['underwriter', { id: 2, name: 'Underwriter', gen2Role: null }],
  ]),
  new Map([
    [
      1,
      [
        {
          policyId: 1,
          policyName: 'p',
          index: 0,
          statement: { effect: 'allow', actions: ['read'], resources: ['claims:*'] },
        },
      ],
    ],
  ]),
  new Map([['multi@atrium.test', ['Claims Adjuster', 'Underwriter']]]),
  new Map([['adjusters', ['Claims Adjuster']]]),
);
const principal = (effectiveRole: string | null, roles: string[]): Principal => ({
  kind: 'user',
  subject: 's',
  username: 'u',
  effectiveRole,
  roles,
});
const question = { resource: 'claims:claim', action: 'read' };

describe('access evaluator', () => {
  const evaluator = createAccessEvaluator({ current: () => snapshot } as unknown as AccessState);

  it('answers the ingress reasons before looking at any policy', () => {
    expect(evaluator.evaluate(principal(null, []), question)).toEqual({ allowed: false, reason: 'no-role-assignment' });
    expect(evaluator.evaluate(principal('Claims Adjuster', []), question)).toEqual({
      allowed: false,
      reason: 'no-role-assignment',
    });
    expect(evaluator.evaluate(principal(null, ['Claims Adjuster', 'Underwriter']), question)).toEqual({
      allowed: false,
      reason: 'no-effective-role',
    });
    expect(evaluator.evaluate(principal('Administrator', ['Claims Adjuster']), question)).toEqual({
      allowed: false,
      reason: 'no-effective-role',
    });
    expect(evaluator.evaluate(principal('Retired', ['Retired']), question)).toEqual({
      allowed: false,
      reason: 'no-effective-role',
    });
  });

  it("decides by the effective role's policies, synchronously when the snapshot is in memory", () => {
    expect(evaluator.evaluate(principal('Claims Adjuster', ['Claims Adjuster', 'Underwriter']), question)).toEqual({
      allowed: true,
      reason: 'allowed-by-statement',
    });
    expect(evaluator.evaluate(principal('Underwriter', ['Claims Adjuster', 'Underwriter']), question)).toEqual({
      allowed: false,
      reason: 'no-matching-statement',
    });
  });

  it('waits for a snapshot being loaded', async () => {
    const loading = createAccessEvaluator({ current: () => Promise.resolve(snapshot) } as unknown as AccessState);
    const answer = loading.evaluate(principal('Claims Adjuster', ['Claims Adjuster']), question);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual({ allowed: true, reason: 'allowed-by-statement' });
  });
});

describe('role lookup', () => {
  it('joins direct and group roles, in name order, any case', () => {
    expect(snapshot.rolesOf(' Multi@Atrium.test ')).toEqual(['Claims Adjuster', 'Underwriter']);
    expect(snapshot.rolesOf('someone@atrium.test', ['ADJUSTERS', 'unknown'])).toEqual(['Claims Adjuster']);
    expect(snapshot.rolesOf('someone@atrium.test')).toEqual([]);
  });
});
