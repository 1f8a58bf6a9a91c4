// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { beforeAll, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { CommitDeployDialog } from './commit-deploy-dialog.js';

beforeAll(preloadTestHost);
// Mantine's autosizing textarea listens to `document.fonts`, which jsdom does not have.
beforeAll(() => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    });
});

it("shows the server's reason when a commit is refused (409), not the client's word for the status", async () => {
  const reason = 'A commit of this effective date is already running.';
  const host = await renderInTestHost(
    <CommitDeployDialog projectId="2" effectiveDateId={5} canDeploy onClose={() => {}} />,
    {
      apis: {
        'POST /rules/projects/2/build/async-commit/5/': () =>
          new Response(JSON.stringify({ status: 409, detail: reason }), {
            status: 409,
            headers: { 'content-type': 'application/problem+json' },
          }),
      },
    },
  );
  await host.user.type(await screen.findByLabelText('Commit message'), 'Usage is required');
  await host.user.click(screen.getByRole('button', { name: 'Commit' }));
  expect(await screen.findByText(reason)).toBeTruthy();
  expect(screen.queryByText('Service unavailable')).toBeNull();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
});
