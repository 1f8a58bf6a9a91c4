// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { ExportDialog } from './export-dialog.js';

beforeAll(preloadTestHost);

const started = { id: 'job-1', kind: 'export', status: 'NEW', progress: '0.00', resultStatus: null, result: null };
const dialog = <ExportDialog projectId={2} projectLabel="Personal auto rules" packages={[]} onClose={() => {}} />;

it('cancels a running export on the server, then says so', async () => {
  const host = await renderInTestHost(dialog, {
    apis: {
      'GET /rules/projects/2/async-export/': started,
      'GET /rules/job/job-1/': { ...started, status: 'IN_PROGRESS', progress: '10.00' },
      'POST /rules/job/job-1/cancel/': { ...started, status: 'CANCELLED', progress: '10.00' },
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Export' }));
  await host.user.click(await screen.findByRole('button', { name: 'Cancel export' }));
  expect(await screen.findByText('The export was cancelled.')).toBeTruthy();
  expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/rules/job/job-1/cancel/')).toBe(true);
});

it('goes on when the job finished before the cancel arrived (409), and offers the file', async () => {
  let finished = false;
  const host = await renderInTestHost(dialog, {
    apis: {
      'GET /rules/projects/2/async-export/': started,
      'GET /rules/job/job-1/': () =>
        finished
          ? {
              ...started,
              status: 'COMPLETED',
              resultStatus: 'SUCCESS',
              progress: '100.00',
              result: {
                file: { name: 'personal_auto_rules-rules-export.json', size: 10 },
                counts: { effective_dates: 2, packages: 1, components: 12, versions: 24 },
              },
            }
          : { ...started, status: 'IN_PROGRESS' },
      'POST /rules/job/job-1/cancel/': () => {
        finished = true;
        return new Response(
          JSON.stringify({
            status: 409,
            detail: 'The export job has already finished; it can no longer be cancelled.',
          }),
          { status: 409, headers: { 'content-type': 'application/problem+json' } },
        );
      },
    },
  });
  await host.user.click(await screen.findByRole('button', { name: 'Export' }));
  await host.user.click(await screen.findByRole('button', { name: 'Cancel export' }));
  expect(await screen.findByRole('button', { name: 'Download personal_auto_rules-rules-export.json' })).toBeTruthy();
  expect(screen.getByText('Exported 12 components in 1 package on 2 effective dates.')).toBeTruthy();
  expect(screen.queryByText(/could not be cancelled/)).toBeNull();
});
