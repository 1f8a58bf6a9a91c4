// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import { claimsLossDetailRoute } from '../routes.js';
import ImportHistoricalClaimsPage from './import-historical-claims-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: JSONAPI });

const run = (attributes: Record<string, unknown>) => ({
  type: 'claims-import-run',
  id: '7',
  attributes: {
    file_name: 'history.csv',
    status: 'queued',
    interrupted: false,
    progress: '0.00',
    created_by: 'admin@atrium.test',
    created_at: '2026-11-22T05:00:00.000Z',
    finished_at: null,
    claims_total: 2,
    claims_processed: 0,
    claims_imported: 0,
    claims_skipped: 0,
    claims_failed: 0,
    exposures_imported: 0,
    entries_imported: 0,
    problems: [],
    error: null,
    ...attributes,
  },
});

describe('Import Historical Claims page', () => {
  beforeAll(preloadTestHost);

  it('previews the chosen file with its problems, imports it, follows the run and links the imported claims', async () => {
    const problem = {
      row: 3,
      column: 'amount',
      claim_number: 'B-1',
      message: 'The payment of 150.00 exceeds the open indemnity reserve of 100.00. Raise the reserve first.',
    };
    let runs: unknown[] = [];
    let checks = 0;
    const host = await renderInTestHost(<ImportHistoricalClaimsPage />, {
      role: 'Administrator',
      routes: { [claimsLossDetailRoute.path]: <p>claim details</p> },
      apis: {
        'GET /claims/imports/': () => json({ data: runs, meta: { count: runs.length, pages: 1 } }),
        'POST /claims/imports/preview/': () =>
          json({
            data: {
              type: 'claims-import-preview',
              id: 'abc',
              attributes: {
                file_name: 'history.csv',
                format: 'csv',
                can_import: true,
                rows: 3,
                claims: 2,
                claims_to_import: 1,
                claims_skipped: 0,
                claims_with_problems: 1,
                exposures: 1,
                entries: 1,
                totals: { reserve_outstanding: '100.00', paid: '0.00', recovered: '0.00', total_incurred: '100.00' },
                problems_count: 1,
                problems: [problem],
              },
            },
          }),
        'POST /claims/imports/': () => {
          runs = [run({})];
          return json({ data: runs[0] }, 202);
        },
        'GET /claims/imports/:id/': () => {
          checks++;
          runs = [
            checks === 1
              ? run({ status: 'running', progress: '50.00', claims_processed: 1 })
              : run({
                  status: 'completed',
                  progress: '100.00',
                  claims_processed: 2,
                  claims_imported: 1,
                  claims_failed: 1,
                  exposures_imported: 1,
                  entries_imported: 1,
                  problems: [problem],
                  finished_at: '2026-11-22T05:00:05.000Z',
                }),
          ];
          return json({ data: runs[0] });
        },
        'GET /claims/imports/:id/claims/': () =>
          json({
            data: [
              {
                type: 'claims-import-claim',
                id: '1',
                attributes: {
                  claim_number: 'A-1',
                  outcome: 'imported',
                  claim_id: 5,
                  first_row: 2,
                  exposures: 1,
                  entries: 1,
                  detail: null,
                },
              },
              {
                type: 'claims-import-claim',
                id: '2',
                attributes: {
                  claim_number: 'B-1',
                  outcome: 'failed',
                  claim_id: null,
                  first_row: 3,
                  exposures: 1,
                  entries: 0,
                  detail: `Row 3, amount: ${problem.message}`,
                },
              },
            ],
            meta: { count: 2, pages: 1 },
          }),
      },
    });
    await screen.findByText('No import has been run yet.');

    const input = host.container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    await host.user.upload(input, new File(['claim_number\n'], 'history.csv', { type: 'text/csv' }));
    const problems = await screen.findByRole('table', { name: 'Problems' });
    expect(within(problems).getAllByRole('row')[1]!.textContent).toBe(`3amountB-1${problem.message}`);
    const upload = host.requests.find((r) => r.method === 'POST' && r.path === '/api/claims/imports/preview/');
    expect((upload!.body as FormData).get('file')).toBeInstanceOf(File);

    await host.user.click(screen.getByRole('button', { name: 'Import 1 claim' }));
    const result = await screen.findByLabelText('Import result');
    await within(result).findByText('Completed');
    await within(result).findByText('1 imported, 0 skipped, 1 failed', { exact: false });
    expect(within(result).queryByRole('link', { name: 'B-1' })).toBeNull();
    await within(screen.getByRole('table', { name: 'Import runs' })).findByText('history.csv');
    await host.user.click(await within(result).findByRole('link', { name: 'A-1' }));
    await waitFor(() => expect(host.location().pathname).toBe('/claims/A-1/details'));
  });

  it('without claims:import offers no upload and asks for no runs', async () => {
    const host = await renderInTestHost(<ImportHistoricalClaimsPage />, {
      role: 'Claims Adjuster',
      canView: (resource) => resource !== 'claims:import',
    });
    await screen.findByText('Importing claims needs the claims:import permission (administrators).');
    expect(screen.getByRole('button', { name: 'Claims file (CSV or XLSX)' })).toHaveProperty('disabled', true);
    expect(host.requests.some((r) => r.path.startsWith('/api/claims/imports'))).toBe(false);
    expect(host.location().pathname).toBe('/test-host');
  });

  describe('an interrupted run', () => {
    const interrupted = () =>
      run({ status: 'running', interrupted: true, progress: '50.00', claims_processed: 1, claims_imported: 1 });
    const claimsOfRun = () => json({ data: [], meta: { count: 0, pages: 1 } });
    const listRequests = (host: { requests: { method: string; path: string }[] }) =>
      host.requests.filter((r) => r.method === 'GET' && r.path === '/api/claims/imports/').length;

    it('shows Interrupted with Resume, which queues it again; the list then polls until it finishes', async () => {
      // Lists after the resume: the run running again, then (on the next poll) completed.
      let listsSinceResume: number | null = null;
      const host = await renderInTestHost(<ImportHistoricalClaimsPage />, {
        role: 'Administrator',
        apis: {
          'GET /claims/imports/': () => {
            const answer =
              listsSinceResume === null
                ? interrupted()
                : listsSinceResume++ === 0
                  ? run({ status: 'running', progress: '50.00', claims_processed: 1, claims_imported: 1 })
                  : run({
                      status: 'completed',
                      progress: '100.00',
                      claims_processed: 2,
                      claims_imported: 2,
                      finished_at: '2026-11-22T05:10:00.000Z',
                    });
            return json({ data: [answer], meta: { count: 1, pages: 1 } });
          },
          'GET /claims/imports/:id/claims/': claimsOfRun,
          'POST /claims/imports/:id/resume/': ({ params }: TestApiRequest) => {
            expect(params.id).toBe('7');
            listsSinceResume = 0;
            return json({ data: run({ status: 'running', progress: '50.00', claims_processed: 1 }) }, 202);
          },
        },
      });
      const list = await screen.findByRole('table', { name: 'Import runs' });
      await within(list).findByText('Interrupted');

      // The details say what happened and offer Resume too.
      await host.user.click(within(list).getByRole('button', { name: 'Show' }));
      const result = await screen.findByLabelText('Import result');
      // The status badge says Interrupted too; the alert is the one that explains.
      const alert = within(result)
        .getAllByText('Interrupted')
        .map((element) => element.closest('[role="alert"]'))
        .find(Boolean) as HTMLElement;
      expect(alert.textContent).toContain('The import stopped after 1 of 2 claims');
      within(alert).getByRole('button', { name: 'Resume import run 7' });

      // An interrupted run changes only when resumed: the list does not poll it.
      const before = listRequests(host);
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(listRequests(host)).toBe(before);

      await host.user.click(within(list).getByRole('button', { name: 'Resume import run 7' }));
      expect(
        host.requests.filter((r) => r.method === 'POST' && r.path === '/api/claims/imports/7/resume/'),
      ).toHaveLength(1);
      // Running again, then completed: only a poll of the list (every 3 s) brings the second answer.
      await within(list).findByText('Running');
      await within(list).findByText('Completed');
      expect(listsSinceResume).toBeGreaterThanOrEqual(2);
      expect(within(list).queryByRole('button', { name: 'Resume import run 7' })).toBeNull();
      await within(result).findByText('2 imported, 0 skipped, 0 failed', { exact: false });
      expect(within(result).queryByText('Interrupted')).toBeNull();
    });

    it('says why when the resume is refused (409)', async () => {
      const host = await renderInTestHost(<ImportHistoricalClaimsPage />, {
        role: 'Administrator',
        apis: {
          'GET /claims/imports/': () => json({ data: [interrupted()], meta: { count: 1, pages: 1 } }),
          'POST /claims/imports/:id/resume/': () =>
            json(
              {
                errors: [
                  {
                    status: '409',
                    title: 'Conflict',
                    detail:
                      'Import run 7 is running and made progress in the last 2 minutes; only an interrupted run can be resumed.',
                  },
                ],
              },
              409,
            ),
        },
      });
      const list = await screen.findByRole('table', { name: 'Import runs' });
      await host.user.click(await within(list).findByRole('button', { name: 'Resume import run 7' }));
      expect((await within(list).findByRole('alert')).textContent).toBe(
        'Import run 7 is running and made progress in the last 2 minutes; only an interrupted run can be resumed.',
      );
    });

    it('offers no Resume to a user who may read runs but not import', async () => {
      await renderInTestHost(<ImportHistoricalClaimsPage />, {
        role: 'Claims Auditor',
        apis: {
          'GET /claims/imports/': () => json({ data: [interrupted()], meta: { count: 1, pages: 1 } }),
          'GET /claims/imports/:id/claims/': claimsOfRun,
          'POST /access/evaluations': ({ body }: TestApiRequest) =>
            new Response(
              JSON.stringify({
                results: (body as { requests: { resource: string; action: string }[] }).requests.map((r) => ({
                  evaluation: { allowed: !(r.resource === 'claims:import' && r.action === 'create') },
                })),
              }),
              { headers: { 'content-type': 'application/json' } },
            ),
        },
      });
      const list = await screen.findByRole('table', { name: 'Import runs' });
      await within(list).findByText('Interrupted');
      await screen.findByText('Importing claims needs the claims:import permission (administrators).');
      expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
    });
  });
});
