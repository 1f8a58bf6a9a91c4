import { describe, expect, it } from 'vitest';
import { afterRoleTarget, rolePrompt } from './role-choice.js';

describe('role select', () => {
  it('asks for a role, says the previous one is gone after a refusal, or that there is none', () => {
    expect(rolePrompt(['Claims Adjuster', 'Underwriter'], null)).toBe(
      'Please select a role to use for your Atrium session:',
    );
    expect(rolePrompt(['Claims Adjuster', 'Underwriter'], 'no-effective-role')).toBe(
      'Your previous role is unavailable. Please select another role to proceed:',
    );
    expect(rolePrompt([], null)).toBe('You do not have any role assignments. Please contact the system administrator.');
  });

  it('goes to the same-site redirect after choosing, else to all-modules', () => {
    const origin = 'https://atrium.example';
    expect(afterRoleTarget('/claims?tab=open', origin)).toBe('/claims?tab=open');
    expect(afterRoleTarget(null, origin)).toBe('/all-modules');
    expect(afterRoleTarget('/?pageReload=true', origin)).toBe('/all-modules');
    expect(afterRoleTarget('https://evil.example/', origin)).toBe('/all-modules');
  });
});
