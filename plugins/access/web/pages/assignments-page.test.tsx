// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import AssignmentsPage from './assignments-page.js';

const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

describe('assignments page', () => {
  beforeAll(preloadTestHost);

  it('assigns several users to a role and lists the ones that failed in the batch-failure dialog', async () => {
    const host = await renderInTestHost(<AssignmentsPage />, {
      apis: {
        'GET /access/roles': page([{ id: 1, name: 'Claims Viewer', gen2_role: null }]),
        'GET /access/policies': page([]),
        'GET /access/policy-assignments': page([]),
        'GET /access/role-user-name-assignments': page([]),
        'GET /identity/user-management/users': ({ query }) => ({
          data: [
            { type: 'user', id: 'u1', attributes: { username: 'ada@atrium.test', name: 'Ada Administrator' } },
            { type: 'user', id: 'u2', attributes: { username: 'casey@atrium.test', name: 'Casey Adjuster' } },
          ].filter((u) =>
            JSON.stringify(u)
              .toLowerCase()
              .includes((query.get('filter[search]') ?? '').toLowerCase()),
          ),
        }),
        'POST /access/role-user-name-assignments': ({ body }) => {
          const { user_name, role } = body as { user_name: string; role: string };
          if (user_name === 'casey@atrium.test')
            return new Response(
              JSON.stringify({
                status: 400,
                detail: "'casey@atrium.test' already holds 'Claims Viewer'.",
                errors: [{ pointer: '/user_name', detail: "'casey@atrium.test' already holds 'Claims Viewer'." }],
              }),
              { status: 400, headers: { 'content-type': 'application/problem+json' } },
            );
          return { id: 9, user_name, role };
        },
      },
    });
    await host.user.click(await screen.findByRole('tab', { name: 'Users in roles' }));
    await waitFor(() => expect(host.requests.some((r) => r.path === '/api/access/roles')).toBe(true));
    const role = await screen.findByRole('combobox', { name: 'Role' });
    await host.user.click(role);
    const listbox = await waitFor(() => document.getElementById(role.getAttribute('aria-controls') ?? '')!);
    await host.user.click(within(listbox).getByRole('option', { name: 'Claims Viewer', hidden: true }));
    const users = screen.getAllByLabelText('Users')[0]!;
    for (const [typed, name] of [
      ['ada', 'Ada Administrator (ada@atrium.test)'],
      ['CASEY', 'Casey Adjuster (casey@atrium.test)'],
    ] as const) {
      await host.user.click(users);
      await host.user.type(users, typed);
      // Only existing users are offered, found by the server's search as the name is typed.
      await waitFor(() =>
        expect(
          host.requests.some(
            (r) =>
              r.path === '/api/identity/user-management/users' &&
              new URLSearchParams(r.search).get('filter[search]') === typed,
          ),
        ).toBe(true),
      );
      const options = await waitFor(() => document.getElementById(users.getAttribute('aria-controls') ?? '')!);
      await host.user.click(await within(options).findByRole('option', { name, hidden: true }));
    }
    await host.user.click(screen.getByRole('button', { name: 'Assign' }));

    const dialog = await screen.findByRole('dialog', { name: 'Batch Action Failed' });
    expect(within(dialog).getByText('We are sorry, batch action failed for 1 items out of 2')).toBeTruthy();
    expect(within(dialog).getByRole('columnheader', { name: 'User name' })).toBeTruthy();
    expect(within(dialog).getByText("'casey@atrium.test' already holds 'Claims Viewer'.")).toBeTruthy();
    await waitFor(() =>
      expect(
        host.requests
          .filter((r) => r.method === 'POST' && r.path === '/api/access/role-user-name-assignments')
          .map((r) => r.body),
      ).toEqual([
        { role: 'Claims Viewer', user_name: 'ada@atrium.test' },
        { role: 'Claims Viewer', user_name: 'casey@atrium.test' },
      ]),
    );
  });
});
