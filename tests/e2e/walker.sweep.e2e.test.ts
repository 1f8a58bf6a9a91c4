import { describe, expect, it } from 'vitest';
import { isFullSweep } from '@atrium/sdk/testing';
import { useE2eSession } from './browser.js';
import { walkAs, WALKER_ACCOUNTS } from './walker.js';

/**
 * The navigation walker (walker.ts) for the demo roles: in `npm test` one role of each class
 * (administrator, adjuster, agent), in `npm run test:full` every demo role.
 */
const SAMPLE = ['administrator', 'adjuster', 'agent'] as const;
const roles = isFullSweep() ? (Object.keys(WALKER_ACCOUNTS) as (keyof typeof WALKER_ACCOUNTS)[]) : SAMPLE;

describe('navigation walker', () => {
  const e2e = useE2eSession('walker');

  for (const role of roles) {
    it(`${role}: every navigation entry and menu link lands on a working, accessible page that fits`, async () => {
      const { visited, problems } = await walkAs(e2e, WALKER_ACCOUNTS[role]);
      expect(visited.length).toBeGreaterThan(1);
      expect(problems).toEqual([]);
      // A guard against a hang: a walk takes well under a minute per role on an idle machine.
    }, 300_000);
  }
});
