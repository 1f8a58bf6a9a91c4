import { describe, expect, it } from 'vitest';
import type { Principal } from '@atrium/sdk/server';
import type { Statement } from '../../shared/statement-schema.js';
import { PolicySet } from './policy-set.js';

const adjuster: Principal = {
  kind: 'user',
  subject: 'u1',
  username: 'adjuster@atrium.test',
  effectiveRole: 'Claims Adjuster',
  roles: ['Claims Adjuster', 'Underwriter'],
  attributes: { state: 'TX', payment_limit: '5000.00', teams: ['auto', 'home'] },
};

const setOf = (...statements: Statement[]) =>
  new PolicySet(statements.map((statement, index) => ({ policyId: 1, policyName: 'test', index, statement })));

const allowed = (
  set: PolicySet,
  resource: string,
  action: string,
  record?: Record<string, unknown>,
  context?: Record<string, unknown>,
  principal = adjuster,
) => set.decide(principal, { resource, action, record, context }).allowed;

describe('policy set', () => {
  it('denies what nothing allows, with its reason', () => {
    const set = setOf({ effect: 'allow', actions: ['read'], resources: ['claims:claim'] });
    expect(set.decide(adjuster, { resource: 'claims:claim', action: 'read' })).toEqual({
      allowed: true,
      reason: 'allowed-by-statement',
    });
    expect(set.decide(adjuster, { resource: 'claims:claim', action: 'delete' })).toEqual({
      allowed: false,
      reason: 'no-matching-statement',
    });
    expect(set.decide(adjuster, { resource: 'claims:payment', action: 'read' }).allowed).toBe(false);
  });

  it('matches wildcards in resources and actions', () => {
    const set = setOf({ effect: 'allow', actions: ['read*'], resources: ['claims:*', 'ui:*-account'] });
    expect(allowed(set, 'claims:payment', 'read')).toBe(true);
    expect(allowed(set, 'claims:payment', 'readAll')).toBe(true);
    expect(allowed(set, 'ui:my-account', 'read')).toBe(true);
    expect(allowed(set, 'claimsx:payment', 'read')).toBe(false);
    expect(allowed(set, 'claims:payment', 'update')).toBe(false);
    expect(allowed(setOf({ effect: 'allow', actions: ['*'], resources: ['*'] }), 'anything:at-all', 'Whatever')).toBe(
      true,
    );
  });

  it('lets a deny win over any allow, whatever the order', () => {
    const allow: Statement = { effect: 'allow', actions: ['*'], resources: ['*'] };
    const deny: Statement = { effect: 'deny', actions: ['delete'], resources: ['claims:*'] };
    for (const set of [setOf(allow, deny), setOf(deny, allow)]) {
      expect(set.decide(adjuster, { resource: 'claims:claim', action: 'delete' })).toEqual({
        allowed: false,
        reason: 'denied-by-statement',
      });
      expect(allowed(set, 'claims:claim', 'read')).toBe(true);
    }
  });

  describe("claims in the user's state", () => {
    const set = setOf({
      effect: 'allow',
      actions: ['read', 'update'],
      resources: ['claims:claim'],
      conditions: [{ attribute: 'record.loss_state', operator: 'eq', value: { ref: 'user.state' } }],
    });
    it('allows a record in the state and refuses one elsewhere', () => {
      expect(allowed(set, 'claims:claim', 'read', { loss_state: 'TX' })).toBe(true);
      expect(allowed(set, 'claims:claim', 'read', { loss_state: 'OK' })).toBe(false);
    });
    it('refuses a record without the attribute, and a user without a state', () => {
      expect(allowed(set, 'claims:claim', 'read', { number: 'CLM-1' })).toBe(false);
      expect(
        allowed(set, 'claims:claim', 'read', { loss_state: 'TX' }, undefined, { ...adjuster, attributes: {} }),
      ).toBe(false);
    });
    it('lets the route check through when no record is given (the handler asks again with it)', () => {
      expect(allowed(set, 'claims:claim', 'read')).toBe(true);
    });
    it('does not read inherited properties', () => {
      const byPrototype = setOf({
        effect: 'allow',
        actions: ['read'],
        resources: ['x'],
        conditions: [{ attribute: 'record.constructor', operator: 'exists' }],
      });
      expect(allowed(byPrototype, 'x', 'read', {})).toBe(false);
    });
  });

  describe('payments up to an amount', () => {
    const set = setOf(
      { effect: 'allow', actions: ['*'], resources: ['claims:*'] },
      {
        sid: 'OverLimit',
        effect: 'deny',
        actions: ['create', 'approve'],
        resources: ['claims:payment'],
        conditions: [{ attribute: 'record.amount', operator: 'gt', value: '5000.00' }],
      },
    );
    it('compares decimals exactly', () => {
      expect(allowed(set, 'claims:payment', 'create', { amount: '5000.00' })).toBe(true);
      expect(allowed(set, 'claims:payment', 'create', { amount: 5000 })).toBe(true);
      expect(allowed(set, 'claims:payment', 'create', { amount: '4999.99' })).toBe(true);
      expect(allowed(set, 'claims:payment', 'create', { amount: '5000.01' })).toBe(false);
      expect(allowed(set, 'claims:payment', 'create', { amount: 5000.000001 })).toBe(false);
    });
    it('keeps denying when the amount is missing or not a number', () => {
      expect(allowed(set, 'claims:payment', 'create', {})).toBe(false);
      expect(allowed(set, 'claims:payment', 'create', { amount: 'a lot' })).toBe(false);
      expect(allowed(set, 'claims:payment', 'create', { amount: null })).toBe(false);
    });
    it('does not deny the route itself, only the records over the limit', () => {
      expect(allowed(set, 'claims:payment', 'create')).toBe(true);
      expect(allowed(set, 'claims:payment', 'read', { amount: '9000' })).toBe(true);
    });
    it('compares with a limit held by the user', () => {
      const byUser = setOf({
        effect: 'allow',
        actions: ['approve'],
        resources: ['claims:payment'],
        conditions: [{ attribute: 'record.amount', operator: 'lte', value: { ref: 'user.payment_limit' } }],
      });
      expect(allowed(byUser, 'claims:payment', 'approve', { amount: '5000' })).toBe(true);
      expect(allowed(byUser, 'claims:payment', 'approve', { amount: '5000.5' })).toBe(false);
    });
  });

  it('evaluates context, in / not_in, contains, starts_with, dates and nested logic', () => {
    const set = setOf({
      effect: 'allow',
      actions: ['read'],
      resources: ['r'],
      conditions: [
        { attribute: 'context.channel', operator: 'in', value: ['web', 'api'] },
        { attribute: 'record.status', operator: 'not_in', value: ['closed'] },
        { attribute: 'user.teams', operator: 'contains', value: { ref: 'record.team' } },
        { attribute: 'record.number', operator: 'starts_with', value: 'CLM-' },
        {
          any: [
            { attribute: 'record.date_of_loss', operator: 'gte', value: '2024-01-01' },
            { attribute: 'user.roles', operator: 'contains', value: 'Underwriter' },
          ],
        },
        { not: { attribute: 'record.sealed', operator: 'eq', value: true } },
      ],
    });
    const record = { status: 'open', team: 'auto', number: 'CLM-7', date_of_loss: '2023-05-01', sealed: false };
    expect(allowed(set, 'r', 'read', record, { channel: 'web' })).toBe(true);
    expect(allowed(set, 'r', 'read', record, { channel: 'fax' })).toBe(false);
    expect(allowed(set, 'r', 'read', record)).toBe(false);
    expect(allowed(set, 'r', 'read', { ...record, status: 'closed' }, { channel: 'web' })).toBe(false);
    expect(allowed(set, 'r', 'read', { ...record, team: 'marine' }, { channel: 'web' })).toBe(false);
    expect(allowed(set, 'r', 'read', { ...record, number: 'POL-7' }, { channel: 'web' })).toBe(false);
    expect(allowed(set, 'r', 'read', { ...record, sealed: true }, { channel: 'web' })).toBe(false);
    expect(allowed(set, 'r', 'read', record, { channel: 'web' }, { ...adjuster, roles: ['Claims Adjuster'] })).toBe(
      false,
    );
    expect(
      allowed(
        set,
        'r',
        'read',
        { ...record, date_of_loss: '2024-02-01' },
        { channel: 'web' },
        { ...adjuster, roles: [] },
      ),
    ).toBe(true);
  });

  it('explains which statement decided', () => {
    const set = setOf({ sid: 'Read', effect: 'allow', actions: ['read'], resources: ['x'] });
    expect(set.explain(adjuster, { resource: 'x', action: 'read' }).statement).toMatchObject({
      index: 0,
      statement: { sid: 'Read' },
    });
    expect(set.explain(adjuster, { resource: 'x', action: 'write' }).statement).toBeNull();
  });
});
