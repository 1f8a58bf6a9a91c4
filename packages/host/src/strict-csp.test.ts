import { describe, expect, it } from 'vitest';

describe('strict CSP', () => {
  it('puts zod in jitless mode without importing it, before or after zod loads', async () => {
    await import('./strict-csp.js');
    const { z } = await import('zod');
    // z.config() answers the configuration zod runs with.
    expect(z.config().jitless).toBe(true);
  });
});
