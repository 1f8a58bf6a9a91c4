// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import { ImportDialog } from './import-dialog.js';

beforeAll(preloadTestHost);

const started = { id: 'job-3', kind: 'import', status: 'NEW', progress: '0.00', resultStatus: null, result: null };
const ticket = {
  url: '/api/storage/uploads/ticket-1',
  fields: { key: 'rules/imports/2026-11/abc', signature: 'sig' },
  key: 'rules/imports/2026-11/abc',
  maxBytes: 20 * 1024 * 1024,
  expiresAt: '2026-11-29T12:00:00Z',
};
const file = () =>
  new File([JSON.stringify({ format: 'atrium-rules-export', version: 1 })], 'auto-rules-export.json', {
    type: 'application/json',
  });

it('uploads the file with its ticket (no Authorization header), starts the import with the key and reports the new project', async () => {
  const uploads: { authorization: string | null; fields: string[] }[] = [];
  const host = await renderInTestHost(<ImportDialog onClose={() => {}} />, {
    apis: {
      'GET /rules/projects/:importId/import/presigned_post_url/': ticket,
      'POST /storage/uploads/ticket-1': ({ headers, body }: TestApiRequest) => {
        uploads.push({
          authorization: headers.get('authorization'),
          fields: body instanceof FormData ? [...body.keys()] : [],
        });
        return new Response(null, { status: 204 });
      },
      'POST /rules/projects/async-import/': started,
      'GET /rules/job/job-3/': {
        ...started,
        status: 'COMPLETED',
        resultStatus: 'SUCCESS',
        progress: '100.00',
        result: { projectId: 9, counts: { effective_dates: 2, packages: 1, components: 12, versions: 24 } },
      },
    },
  });
  await screen.findByRole('button', { name: /Export file/ });
  await host.user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file());
  await host.user.type(screen.getByLabelText(/^Name/), 'auto_copy');
  await host.user.type(screen.getByLabelText(/^Label/), 'Auto copy');
  await host.user.click(screen.getByRole('button', { name: 'Import' }));
  expect(
    await screen.findByText('Imported 12 components in 1 package on 2 effective dates (drafts) as a new project.'),
  ).toBeTruthy();
  expect(uploads).toEqual([{ authorization: null, fields: ['key', 'signature', 'file'] }]);
  const ticketCall = host.requests.find((r) => r.path.endsWith('/import/presigned_post_url/'));
  expect(ticketCall?.path).toMatch(/^\/api\/rules\/projects\/import-ui-[0-9a-f-]{36}\/import\/presigned_post_url\/$/);
  expect(host.requests.find((r) => r.path === '/api/rules/projects/async-import/')?.body).toEqual({
    key: ticket.key,
    name: 'auto_copy',
    label: 'Auto copy',
  });
});

it("shows why an import failed (the job's reason), keeps the form, and imports again under another name", async () => {
  let imports = 0;
  const host = await renderInTestHost(<ImportDialog onClose={() => {}} />, {
    apis: {
      'GET /rules/projects/:importId/import/presigned_post_url/': ticket,
      'POST /storage/uploads/ticket-1': () => new Response(null, { status: 204 }),
      'POST /rules/projects/async-import/': () => {
        imports++;
        return { ...started, id: `job-${imports}` };
      },
      'GET /rules/job/job-1/': {
        ...started,
        id: 'job-1',
        status: 'COMPLETED',
        resultStatus: 'ERROR',
        progress: '100.00',
        result: { message: "A rules project named 'personal_auto_rules' already exists." },
      },
      'GET /rules/job/job-2/': {
        ...started,
        id: 'job-2',
        status: 'COMPLETED',
        resultStatus: 'SUCCESS',
        progress: '100.00',
        result: { projectId: 9, counts: { effective_dates: 1, packages: 1, components: 1, versions: 1 } },
      },
    },
  });
  await screen.findByRole('button', { name: /Export file/ });
  await host.user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file());
  await host.user.click(screen.getByRole('button', { name: 'Import' }));
  expect(await screen.findByText("A rules project named 'personal_auto_rules' already exists.")).toBeTruthy();
  await host.user.type(screen.getByLabelText(/^Name/), 'auto_two');
  await host.user.click(screen.getByRole('button', { name: 'Import' }));
  expect(
    await screen.findByText('Imported 1 component in 1 package on 1 effective date (drafts) as a new project.'),
  ).toBeTruthy();
});

it("shows the server's refusal of the start (a name it does not accept) and cancels a running import", async () => {
  let refuse = true;
  const host = await renderInTestHost(<ImportDialog onClose={() => {}} />, {
    apis: {
      'GET /rules/projects/:importId/import/presigned_post_url/': ticket,
      'POST /storage/uploads/ticket-1': () => new Response(null, { status: 204 }),
      'POST /rules/projects/async-import/': () =>
        refuse
          ? new Response(
              JSON.stringify({
                status: 400,
                detail: 'A name is letters, digits and underscores, starting with a letter.',
              }),
              { status: 400, headers: { 'content-type': 'application/problem+json' } },
            )
          : started,
      'GET /rules/job/job-3/': { ...started, status: 'IN_PROGRESS', progress: '50.00' },
      'POST /rules/job/job-3/cancel/': { ...started, status: 'CANCELLED', progress: '50.00' },
    },
  });
  await screen.findByRole('button', { name: /Export file/ });
  await host.user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file());
  await host.user.type(screen.getByLabelText(/^Name/), '9 bad');
  await host.user.click(screen.getByRole('button', { name: 'Import' }));
  expect(await screen.findByText('A name is letters, digits and underscores, starting with a letter.')).toBeTruthy();
  refuse = false;
  await host.user.clear(screen.getByLabelText(/^Name/));
  await host.user.click(screen.getByRole('button', { name: 'Import' }));
  await host.user.click(await screen.findByRole('button', { name: 'Cancel import' }));
  expect(await screen.findByText('The import was cancelled.')).toBeTruthy();
  expect(host.requests.some((r) => r.method === 'POST' && r.path === '/api/rules/job/job-3/cancel/')).toBe(true);
});
