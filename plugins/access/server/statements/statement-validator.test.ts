import { describe, expect, it } from 'vitest';
import { validateStatements } from './statement-validator.js';

const pointers = (statements: unknown) =>
  validateStatements(statements).map((issue) => (issue.source as { pointer: string }).pointer);

describe('statement validation', () => {
  it('accepts the statement language', () => {
    expect(
      validateStatements([
        { sid: 'All', effect: 'allow', actions: ['*'], resources: ['*'] },
        {
          effect: 'deny',
          actions: ['create', 'update'],
          resources: ['claims:payment'],
          conditions: [
            { attribute: 'record.amount', operator: 'gt', value: '5000.00' },
            {
              any: [
                { attribute: 'record.loss_state', operator: 'ne', value: { ref: 'user.state' } },
                { not: { attribute: 'context.approved', operator: 'exists' } },
              ],
            },
            { attribute: 'record.status', operator: 'in', value: ['open', 'reopened'] },
            { attribute: 'record.date_of_loss', operator: 'gte', value: '2024-01-01' },
          ],
        },
      ]),
    ).toEqual([]);
  });

  it('names the statement by index and sid, and points at the field', () => {
    const issues = validateStatements([
      { effect: 'allow', actions: ['read'], resources: ['claims:*'] },
      { effect: 'allow', actions: ['read'], resources: ['x'] },
      { sid: 'PayUpTo5000', effect: 'permit', actions: ['read'], resources: ['claims:payment'] },
    ]);
    expect(issues).toEqual([
      {
        detail: `Statement 2 ('PayUpTo5000'): effect must be 'allow' or 'deny', not "permit".`,
        source: { pointer: '/statements/2/effect' },
        code: 'invalid_value',
      },
    ]);
  });

  it('reports every problem with its own pointer', () => {
    expect(
      pointers([
        'nope',
        { effect: 'allow', actions: [], resources: 'claims', colour: 'red' },
        { sid: 'a', effect: 'allow', actions: ['read me'], resources: ['x'] },
        {
          sid: 'a',
          effect: 'deny',
          actions: ['read'],
          resources: ['x'],
          conditions: [{ attribute: 'claim.amount', operator: 'lt', value: 'lots' }],
        },
        {
          effect: 'deny',
          actions: ['read'],
          resources: ['x'],
          conditions: [
            { attribute: 'record.a', operator: 'in', value: 'x' },
            { attribute: 'record.a', operator: 'eq' },
            { attribute: 'record.a', operator: 'exists', value: 1 },
            { all: [] },
            { attribute: 'record.a', operator: 'eq', value: { ref: 'elsewhere.b' } },
          ],
        },
      ]),
    ).toEqual([
      '/statements/0',
      '/statements/1/colour',
      '/statements/1/actions',
      '/statements/1/resources',
      '/statements/2/actions/0',
      '/statements/3/sid',
      '/statements/3/conditions/0/attribute',
      '/statements/3/conditions/0/value',
      '/statements/4/conditions/0/value',
      '/statements/4/conditions/1/value',
      '/statements/4/conditions/2/value',
      '/statements/4/conditions/3/all',
      '/statements/4/conditions/4/value',
    ]);
  });

  it('requires effect, actions and resources and a list of statements', () => {
    expect(pointers([{}])).toEqual(['/statements/0/effect', '/statements/0/actions', '/statements/0/resources']);
    expect(pointers({})).toEqual(['/statements']);
  });

  it('limits nesting', () => {
    let condition: unknown = { attribute: 'record.a', operator: 'exists' };
    for (let i = 0; i < 8; i++) condition = { not: condition };
    expect(
      validateStatements([{ effect: 'allow', actions: ['a'], resources: ['b'], conditions: [condition] }])[0]?.code,
    ).toBe('too_big');
  });
});
