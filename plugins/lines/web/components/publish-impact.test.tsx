// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import LineOverviewPage from '../pages/line-overview-page.js';
import { HO3, HO3_CONDO, HOMEOWNERS_LINES, problem, RISK_TYPES } from '../pages/test-fixtures.js';
import { lineOverviewRoute } from '../routes.js';

beforeAll(preloadTestHost);

it('lists what a publish would break and publishes only when the impact is acknowledged', async () => {
  const refusal =
    'Publishing 2026.2 would break 1 committed rule; review the list and publish again acknowledging the impact.';
  const host = await renderInTestHost(<LineOverviewPage />, {
    path: lineOverviewRoute.path,
    at: '/lines/Homeowners?version_id=12',
    apis: {
      ...HOMEOWNERS_LINES,
      'GET /lines/products/': [HO3, HO3_CONDO],
      'GET /lines/products/:p/risk-types/': RISK_TYPES,
      'PATCH /lines/products/5/versions/12/status/': problem(409, refusal, [{ detail: refusal }], {
        code: 'publish_impact',
        impact: [
          {
            source: 'Rules project Homeowners rules (2026-01-01)',
            subject: 'ho_rules.ui.pool_fence',
            message: "Rule 'pool_fence': 'fence' is not a field of 'pool' or the risks it belongs to.",
          },
        ],
      }),
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Publish' }));
  expect(await screen.findByText(refusal)).toBeTruthy();
  const list = screen.getByLabelText('Publish impact');
  expect(within(list).getByText(/ho_rules\.ui\.pool_fence/)).toBeTruthy();
  expect(host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ status: 'published' }]);
  await host.user.click(within(list).getByRole('button', { name: /publish anyway/ }));
  expect(host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
    { status: 'published' },
    { status: 'published', acknowledgeImpact: true },
  ]);
});
