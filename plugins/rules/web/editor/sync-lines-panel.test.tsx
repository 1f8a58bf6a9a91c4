// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import { SyncLinesPanel } from './sync-lines-panel.js';

beforeAll(preloadTestHost);

const started = { id: 'job-9', kind: 'sync', status: 'NEW', progress: '0.00', resultStatus: null, result: null };
const answering = (allowed: (resource: string, action: string) => boolean) => ({
  'POST /access/evaluations': ({ body }: TestApiRequest) =>
    new Response(
      JSON.stringify({
        results: (body as { requests: { resource: string; action: string }[] }).requests.map((r) => ({
          evaluation: { allowed: allowed(r.resource, r.action) },
        })),
      }),
      { headers: { 'content-type': 'application/json' } },
    ),
});

it('starts a sync job for the effective date and lists the rules that no longer match the lines version', async () => {
  const host = await renderInTestHost(<SyncLinesPanel projectId="2" effectiveDateId={7} />, {
    apis: {
      ...answering(() => true),
      'POST /rules/projects/2/sync/': started,
      'GET /rules/job/job-9/': {
        ...started,
        status: 'COMPLETED',
        resultStatus: 'ERROR',
        progress: '100.00',
        result: {
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
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Sync with lines' }));
  const panel = screen.getByLabelText('Sync with lines');
  expect(await within(panel).findByText('1 problem against lines version 2026.2:')).toBeTruthy();
  expect(within(panel).getByText(/agents_keep_vin: Rule/)).toBeTruthy();
  expect(host.requests.find((r) => r.path === '/api/rules/projects/2/sync/')?.body).toEqual({ effective_date_id: 7 });
});

it("shows the server's reason when the sync cannot check (lines has no version) and offers the sync again", async () => {
  let runs = 0;
  const host = await renderInTestHost(<SyncLinesPanel projectId="2" effectiveDateId={7} />, {
    apis: {
      ...answering(() => true),
      'POST /rules/projects/2/sync/': () => {
        runs++;
        return started;
      },
      'GET /rules/job/job-9/': {
        ...started,
        status: 'COMPLETED',
        resultStatus: 'ERROR',
        progress: '100.00',
        result: { message: "Lines has no published version of 'personal_auto' to check the rules against." },
      },
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Sync with lines' }));
  expect(
    await screen.findByText("Lines has no published version of 'personal_auto' to check the rules against."),
  ).toBeTruthy();
  await host.user.click(screen.getByRole('button', { name: 'Sync with lines' }));
  await expect.poll(() => runs).toBe(2);
});

it('cancels a running sync', async () => {
  const host = await renderInTestHost(<SyncLinesPanel projectId="2" effectiveDateId={7} />, {
    apis: {
      ...answering(() => true),
      'POST /rules/projects/2/sync/': started,
      'GET /rules/job/job-9/': { ...started, status: 'IN_PROGRESS', progress: '10.00' },
      'POST /rules/job/job-9/cancel/': { ...started, status: 'CANCELLED', progress: '10.00' },
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Sync with lines' }));
  await host.user.click(await screen.findByRole('button', { name: 'Cancel sync' }));
  expect(await screen.findByText('The sync was cancelled.')).toBeTruthy();
  expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/rules/job/job-9/cancel/')).toBe(true);
});

it('is not offered to a role that may not validate the rules (the permission the sync route checks)', async () => {
  const host = await renderInTestHost(<SyncLinesPanel projectId="2" effectiveDateId={7} />, {
    apis: answering((resource, action) => !(resource === 'rules:build' && action === 'validate')),
  });
  await expect
    .poll(() => host.requests.some((r) => r.path === '/api/access/evaluations'), { timeout: 10_000 })
    .toBe(true);
  // The answer has arrived and been applied: nothing is shown.
  await new Promise((r) => setTimeout(r, 200));
  expect(screen.queryByRole('button', { name: 'Sync with lines' })).toBeNull();
});
