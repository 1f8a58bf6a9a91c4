import { describe, expect, it } from 'vitest';
import { isAgentRole } from './agent-role.js';

describe('isAgentRole', () => {
  it.each(['Agent', 'Senior Agent', 'Agency', 'Agency Principal'])('treats %s as an agent role', (role) => {
    expect(isAgentRole(role)).toBe(true);
  });
  it.each(['Administrator', 'Employee', 'Management Admin', 'agent-like lower case', null, undefined])(
    'treats %s as a carrier role',
    (role) => {
      expect(isAgentRole(role)).toBe(false);
    },
  );
});
