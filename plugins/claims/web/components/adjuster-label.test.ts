import { describe, expect, it } from 'vitest';
import { adjusterName, adjusterNameAndUser } from './adjuster-label.js';

describe('adjuster label', () => {
  it('shows the person, with the user name where both fit, and falls back to the user name', () => {
    const named = { primary_adjuster: 'casey@atrium.test', primary_adjuster_name: 'Casey Adjuster' };
    expect(adjusterName(named)).toBe('Casey Adjuster');
    expect(adjusterNameAndUser(named)).toBe('Casey Adjuster (casey@atrium.test)');
    const unnamed = { primary_adjuster: 'casey@atrium.test', primary_adjuster_name: null };
    expect(adjusterName(unnamed)).toBe('casey@atrium.test');
    expect(adjusterNameAndUser(unnamed)).toBe('casey@atrium.test');
    expect(adjusterName({ primary_adjuster: null })).toBe('');
  });
});
