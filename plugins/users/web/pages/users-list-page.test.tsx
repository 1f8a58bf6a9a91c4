// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import users from '../plugin.js';
import UsersListPage from './users-list-page.js';

const user = (id: string, username: string, active = true) => ({
  type: 'user',
  id,
  attributes: { username, name: username.split('@')[0], email: username, is_active: active, status: 'CONFIRMED' },
  relationships: { groups: { data: [{ type: 'group', id: 'g1' }] } },
});
const groups = {
  data: [{ type: 'group', id: 'g1', attributes: { name: 'Adjusters' } }],
  meta: { count: 1, pages: 1 },
  links: { next: null },
};
const jsonApiError = (status: number, detail: string) =>
  new Response(JSON.stringify({ errors: [{ status: String(status), title: 'Bad Request', detail }] }), {
    status,
    headers: { 'content-type': 'application/vnd.api+json' },
  });

describe('users list page', () => {
  beforeAll(preloadTestHost);

  it('searches, filters by status, deactivates a selection and lists the failures in the batch-failure dialog', async () => {
    const host = await renderInTestHost(<UsersListPage />, {
      apis: {
        'GET /identity/user-management/groups': groups,
        'GET /identity/user-management/users': {
          data: [user('u1', 'ada@atrium.test'), user('u2', 'casey@atrium.test')],
          meta: { count: 2, pages: 1 },
        },
        'PATCH /identity/user-management/users/:id': ({ params, body }) =>
          params.id === 'u2' ? jsonApiError(400, 'User casey@atrium.test cannot be deactivated.') : body,
      },
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('ada@atrium.test');
    expect(within(table).getAllByText('Adjusters')).toHaveLength(2);

    const status = screen.getByRole('combobox', { name: 'Status' });
    await host.user.click(status);
    const listbox = await waitFor(() => document.getElementById(status.getAttribute('aria-controls') ?? '')!);
    await host.user.click(within(listbox).getByRole('option', { name: 'Inactive', hidden: true }));
    await waitFor(() =>
      expect(
        host.requests.some(
          (r) => r.path === '/api/identity/user-management/users' && r.search.includes('filter%5Bis_active%5D=false'),
        ),
      ).toBe(true),
    );

    // The search is sent once typing pauses.
    await host.user.type(screen.getByRole('textbox', { name: 'Search' }), 'ada');
    const searches = () =>
      host.requests.filter((r) => r.path === '/api/identity/user-management/users' && r.search.includes('search'));
    await waitFor(() =>
      expect(searches().map((r) => new URLSearchParams(r.search).get('filter[search]'))).toEqual(['ada']),
    );

    await host.user.click(await screen.findByRole('checkbox', { name: 'Select ada@atrium.test' }));
    await host.user.click(screen.getByRole('checkbox', { name: 'Select casey@atrium.test' }));
    await host.user.click(screen.getByRole('button', { name: 'Deactivate selected (2)' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(within(confirm).getByText('Are you sure you want to deactivate this selection of 2 users?')).toBeTruthy();
    await host.user.click(within(confirm).getByRole('button', { name: 'Yes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Batch Action Failed' });
    expect(within(dialog).getByText('We are sorry, batch action failed for 1 items out of 2')).toBeTruthy();
    expect(within(dialog).getByRole('columnheader', { name: 'User name' })).toBeTruthy();
    expect(within(dialog).getByText('casey@atrium.test')).toBeTruthy();
    expect(within(dialog).getByText('User casey@atrium.test cannot be deactivated.')).toBeTruthy();
    const patches = host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body);
    expect(patches).toEqual([
      { data: { type: 'user', id: 'u1', attributes: { is_active: false } } },
      { data: { type: 'user', id: 'u2', attributes: { is_active: false } } },
    ]);
  });

  it('sends agents to /forbidden through the module check, and agencies even when a policy lets them view it', async () => {
    const agent = await renderInTestHost(<p>unused</p>, {
      role: 'Agent',
      plugins: [users],
      at: '/users',
      canView: (module) => module !== 'users',
    });
    await waitFor(() => expect(agent.location().pathname).toBe('/forbidden'));
    agent.unmount();

    const agency = await renderInTestHost(<UsersListPage />, { role: 'Agency' });
    await waitFor(() => expect(agency.location().pathname).toBe('/forbidden'));
    expect(agency.requests.some((r) => r.path.startsWith('/api/identity/user-management'))).toBe(false);
  });
});
