// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import UserManagePage from './user-manage-page.js';

const groups = {
  data: [{ type: 'group', id: 'g1', attributes: { name: 'Adjusters' } }],
  meta: { count: 1, pages: 1 },
  links: { next: null },
};

describe('new user page', () => {
  beforeAll(preloadTestHost);

  it('creates a user with groups and shows the temporary password once', async () => {
    const host = await renderInTestHost(<UserManagePage />, {
      path: '/users/manage/:inviteUserContactId?',
      at: '/users/manage/77',
      apis: {
        'GET /identity/user-management/groups': groups,
        'POST /identity/user-management/users': ({ body }) => {
          const { data } = body as { data: { attributes: Record<string, unknown> } };
          return new Response(
            JSON.stringify({
              data: { type: 'user', id: 'u9', attributes: { ...data.attributes, is_active: true } },
              meta: { temporary_password: 'Tmp-Secret-123!' },
            }),
            { status: 201, headers: { 'content-type': 'application/vnd.api+json' } },
          );
        },
      },
    });
    expect(await screen.findByText('Inviting contact 77.')).toBeTruthy();
    await host.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Robin Reviewer');
    await host.user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'robin@atrium.test');
    await host.user.type(screen.getByRole('textbox', { name: 'Phone' }), '+15555550123');
    const groupsInput = screen.getAllByLabelText('Groups')[0]!;
    await host.user.click(groupsInput);
    const listbox = document.getElementById(groupsInput.getAttribute('aria-controls') ?? '')!;
    await host.user.click(within(listbox).getByRole('option', { name: 'Adjusters', hidden: true }));
    await host.user.click(screen.getByRole('button', { name: 'Create user' }));

    expect((await screen.findByTestId('temporary-password')).textContent).toBe('Tmp-Secret-123!');
    const post = host.requests.find((r) => r.method === 'POST' && r.path === '/api/identity/user-management/users');
    expect(post?.body).toEqual({
      data: {
        type: 'user',
        attributes: {
          username: 'robin@atrium.test',
          name: 'Robin Reviewer',
          email: 'robin@atrium.test',
          phone_number: '+15555550123',
        },
        relationships: { groups: { data: [{ type: 'group', id: 'g1' }] } },
      },
    });
  });

  it('checks required fields, then shows the server’s field errors by pointer', async () => {
    const host = await renderInTestHost(<UserManagePage />, {
      apis: {
        'GET /identity/user-management/groups': groups,
        'POST /identity/user-management/users': new Response(
          JSON.stringify({
            errors: [
              {
                status: '400',
                code: 'UsernameExistsException',
                detail: 'An account with the given email already exists.',
                source: { pointer: '/data/attributes/username' },
              },
            ],
          }),
          { status: 400, headers: { 'content-type': 'application/vnd.api+json' } },
        ),
      },
    });
    await host.user.click(await screen.findByRole('button', { name: 'Create user' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    expect(host.requests.some((r) => r.path === '/api/identity/user-management/users')).toBe(false);

    await host.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await host.user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ada@atrium.test');
    await host.user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('An account with the given email already exists.')).toBeTruthy();
    expect(screen.queryByTestId('temporary-password')).toBeNull();
  });
});
