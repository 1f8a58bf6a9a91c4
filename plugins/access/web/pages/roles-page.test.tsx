// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import RolesPage from './roles-page.js';

const problem = (status: number, errors: { pointer: string; detail: string }[]) =>
  new Response(JSON.stringify({ status, detail: errors[0]!.detail, errors }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

describe('roles page', () => {
  beforeAll(preloadTestHost);

  it('creates a role, showing the server’s error on the field its pointer names', async () => {
    let attempts = 0;
    const host = await renderInTestHost(<RolesPage />, {
      apis: {
        'GET /access/roles': {
          count: 1,
          next: null,
          previous: null,
          results: [{ id: 1, name: 'Administrator', gen2_role: 'admin' }],
        },
        'POST /access/roles': ({ body }) =>
          ++attempts === 1
            ? problem(400, [{ pointer: '/name', detail: "A role named 'administrator' already exists." }])
            : { id: 2, ...(body as object) },
      },
    });
    await within(await screen.findByRole('table', { name: 'Roles' })).findByText('Administrator');
    await host.user.click(screen.getByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    await host.user.type(within(dialog).getByLabelText('Role name'), 'administrator');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText("A role named 'administrator' already exists.")).toBeTruthy();

    await host.user.clear(within(dialog).getByLabelText('Role name'));
    await host.user.type(within(dialog).getByLabelText('Role name'), 'Claims Viewer');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Role 'Claims Viewer' saved.")).toBeTruthy();
    expect(
      host.requests.filter((r) => r.method === 'POST' && r.path === '/api/access/roles').map((r) => r.body),
    ).toEqual([
      { name: 'administrator', gen2_role: null },
      { name: 'Claims Viewer', gen2_role: null },
    ]);
  });

  it('asks before deleting a role with the SDK’s message', async () => {
    const host = await renderInTestHost(<RolesPage />, {
      apis: {
        'GET /access/roles': {
          count: 1,
          next: null,
          previous: null,
          results: [{ id: 3, name: 'Claims Viewer', gen2_role: null }],
        },
        'DELETE /access/roles/3': () => new Response(null, { status: 204 }),
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Delete Claims Viewer' }));
    expect(await screen.findByText('Are you sure you want to delete this role?')).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await host.user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("Role 'Claims Viewer' deleted.")).toBeTruthy();
  });
});
