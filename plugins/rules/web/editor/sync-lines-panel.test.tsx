// @vitest-environment jsdom
import { configure, screen, within } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { SyncLinesPanel } from './sync-lines-panel.js';

configure({ asyncUtilTimeout: 10_000 });
beforeAll(preloadTestHost, 30_000);

it('lists the rules that no longer match the lines version in force', async () => {
  const host = await renderInTestHost(<SyncLinesPanel projectId="2" effectiveDateId={7} />, {
    apis: {
      'GET /rules/projects/2/sync-lines/': {
        linesVersion: '2026.2',
        effectiveDate: '2026-01-01',
        count: 1,
        results: [
          {
            component: 'personal_auto_rules.ui.agents_keep_vin',
            message: "Rule 'agents_keep_vin': 'vin' is not a field of 'vehicle' or the risks it belongs to.",
          },
        ],
      },
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Sync with lines' }));
  const panel = screen.getByLabelText('Sync with lines');
  expect(await within(panel).findByText('1 problem against lines version 2026.2:')).toBeTruthy();
  expect(within(panel).getByText(/agents_keep_vin: Rule/)).toBeTruthy();
  expect(host.requests.find((r) => r.path === '/api/rules/projects/2/sync-lines/')?.search).toBe('?effectiveDate=7');
}, 30_000);
