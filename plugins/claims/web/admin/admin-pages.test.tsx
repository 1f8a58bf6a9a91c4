// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { claimsAdminPerilsRoute } from '../routes.js';
import AdminSetupPage from './admin-setup-page.js';
import PerilsPage from './perils-page.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };

describe('claims admin setup', () => {
  beforeAll(preloadTestHost);

  it('filters the setup modules by title, case-insensitively, and links to them', async () => {
    const host = await renderInTestHost(<AdminSetupPage />, {
      role: 'Administrator',
      routes: { [claimsAdminPerilsRoute.path]: <p>perils page</p> },
    });
    await host.user.type(screen.getByRole('textbox', { name: 'Search' }), 'pERIL');
    expect(screen.queryByText('Tag Maintenance')).toBeNull();
    await host.user.click(screen.getByRole('link', { name: 'Perils' }));
    await waitFor(() => expect(host.location().pathname).toBe('/claims/admin-setup/perils'));
  });

  it('adds, edits and deletes perils, with the server’s field errors on the fields', async () => {
    let perils = [{ type: 'peril', id: '1', attributes: { name: 'hail', label: 'Hail', code: null, expired: false } }];
    const host = await renderInTestHost(<PerilsPage />, {
      role: 'Administrator',
      apis: {
        'GET /claims/perils/': () =>
          new Response(JSON.stringify({ data: perils, meta: { count: perils.length, pages: 1 } }), {
            headers: JSONAPI,
          }),
        'POST /claims/perils/': ({ body }) => {
          const attributes = (body as { data: { attributes: Record<string, unknown> } }).data.attributes;
          if (attributes.name === 'hail')
            return new Response(
              JSON.stringify({
                errors: [{ detail: 'A peril with this name exists.', source: { pointer: '/data/attributes/name' } }],
              }),
              { status: 400, headers: JSONAPI },
            );
          perils = [...perils, { type: 'peril', id: '2', attributes: attributes as never }];
          return new Response(JSON.stringify({ data: perils[1] }), { status: 201, headers: JSONAPI });
        },
        'DELETE /claims/perils/:id/': ({ params }) => {
          perils = perils.filter((p) => p.id !== params.id);
          return new Response(null, { status: 204 });
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Perils' });
    await within(table).findByText('Hail');

    await host.user.click(screen.getByRole('button', { name: 'Add' }));
    let dialog = await screen.findByRole('dialog');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'hail');
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'Hail again');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A peril with this name exists.')).toBeTruthy();
    await host.user.clear(within(dialog).getByRole('textbox', { name: /^Name/ }));
    await host.user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'flood');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(table).findByText('Hail again');

    await host.user.click(within(table).getByRole('button', { name: 'Delete hail' }));
    dialog = await screen.findByRole('dialog', { name: 'Confirm' });
    await host.user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(table).queryByText('Hail', { exact: true })).toBeNull());
    expect(host.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/claims/perils/1/']);
  });
});
