// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import UserEditPage from './user-edit-page.js';

const ada = (active: boolean) => ({
  type: 'user',
  id: 'u1',
  attributes: {
    username: 'ada@atrium.test',
    name: 'Ada',
    email: 'ada@atrium.test',
    phone_number: null,
    is_active: active,
    is_employee: true,
    status: 'CONFIRMED',
  },
  relationships: { groups: { data: [{ type: 'group', id: 'g1' }] } },
});

describe('edit user page', () => {
  beforeAll(preloadTestHost);

  it('saves the changed attributes and groups, deactivates and sets a temporary password after confirmation', async () => {
    let active = true;
    const host = await renderInTestHost(<UserEditPage />, {
      path: '/users/edit/:username',
      at: '/users/edit/ada%40atrium.test',
      apis: {
        'GET /identity/user-management/groups': {
          data: [
            { type: 'group', id: 'g1', attributes: { name: 'Adjusters' } },
            { type: 'group', id: 'g2', attributes: { name: 'Underwriters' } },
          ],
          meta: { count: 2, pages: 1 },
        },
        'GET /identity/user-management/users': () => ({ data: [ada(active)], meta: { count: 1, pages: 1 } }),
        'PATCH /identity/user-management/users/u1': ({ body }) => {
          const attributes = (body as { data: { attributes: { is_active?: boolean } } }).data.attributes;
          if (attributes.is_active !== undefined) active = attributes.is_active;
          return { data: ada(active) };
        },
        'POST /identity/user-management/users/u1/relationships/groups': { data: [] },
        'DELETE /identity/user-management/users/u1/relationships/groups': { data: [] },
        'POST /identity/user-management/users/u1/set-temporary-password': {
          data: ada(active),
          meta: { temporary_password: 'Fresh-Temp-456!' },
        },
      },
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(host.requests.find((r) => r.path === '/api/identity/user-management/users')?.search).toContain(
      'filter%5Busername%5D=ada%40atrium.test',
    );
    await host.user.clear(name);
    await host.user.type(name, 'Ada Lovelace');
    // Underwriters joins, Adjusters leaves.
    const groupsInput = screen.getAllByLabelText('Groups')[0]!;
    await host.user.click(groupsInput);
    const listbox = document.getElementById(groupsInput.getAttribute('aria-controls') ?? '')!;
    await host.user.click(within(listbox).getByRole('option', { name: 'Underwriters', hidden: true }));
    await host.user.click(within(listbox).getByRole('option', { name: 'Adjusters', hidden: true }));
    await host.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(host.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
        { data: { type: 'user', id: 'u1', attributes: { name: 'Ada Lovelace' } } },
      ]),
    );
    const relationship = '/api/identity/user-management/users/u1/relationships/groups';
    await waitFor(() =>
      expect(host.requests.filter((r) => r.path === relationship).map((r) => [r.method, r.body])).toEqual([
        ['POST', { data: [{ type: 'group', id: 'g2' }] }],
        ['DELETE', { data: [{ type: 'group', id: 'g1' }] }],
      ]),
    );

    await host.user.click(screen.getByRole('button', { name: 'Deactivate' }));
    let confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(within(confirm).getByText('Are you sure you want to deactivate this user?')).toBeTruthy();
    await host.user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'Activate' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(host.requests.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({
      data: { type: 'user', id: 'u1', attributes: { is_active: false } },
    });

    await host.user.click(screen.getByRole('button', { name: 'Set temporary password' }));
    confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(within(confirm).getByText('Are you sure you want to set a temporary password for this user?')).toBeTruthy();
    await host.user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect((await screen.findByTestId('temporary-password')).textContent).toBe('Fresh-Temp-456!');
  });

  it('says so when there is no such user', async () => {
    await renderInTestHost(<UserEditPage />, {
      path: '/users/edit/:username',
      at: '/users/edit/nobody%40atrium.test',
      apis: { 'GET /identity/user-management/users': { data: [], meta: { count: 0, pages: 1 } } },
    });
    expect(await screen.findByText('There is no user nobody@atrium.test.')).toBeTruthy();
  });
});
