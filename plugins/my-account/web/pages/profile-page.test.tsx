// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import ProfilePage from './profile-page.js';

const PICTURE_URL = '/api/identity/user-management/users/u-1/picture?v=0123456789ab';
const SAVED_DATA_URL = 'data:image/webp;base64,c2F2ZWQ=';

const account = (picture: string | null) => ({
  id: 'u-1',
  username: 'adjuster@atrium.test',
  email: 'adjuster@atrium.test',
  email_verified: true,
  name: 'Casey Adjuster',
  phone_number: null,
  phone_number_verified: false,
  picture,
  groups: ['Claims Adjuster'],
  updated_at: '2026-11-22T00:00:00.000Z',
  mfa: { preferred: null, sms_mfa_enabled: false, software_token_mfa_enabled: false, software_token_verified: false },
});

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const png = (size = 16) => new File([new Uint8Array(size)], 'me.png', { type: 'image/png' });

describe('profile page: picture', () => {
  beforeAll(preloadTestHost);

  it('shows the uploaded picture, previews a new one and uploads it with the form', async () => {
    const host = await renderInTestHost(<ProfilePage />, {
      apis: {
        'GET /identity/session': account(PICTURE_URL),
        'GET /identity/user-management/users/:id/picture': { data_url: SAVED_DATA_URL },
        'PATCH /identity/user-management/users/me': { data: { type: 'user', id: 'u-1' } },
        'POST /identity/user-management/users/me/picture': { picture: PICTURE_URL },
      },
    });
    const current = await screen.findByRole('img', { name: 'Your picture' });
    await waitFor(() => expect(current.getAttribute('src')).toBe(SAVED_DATA_URL));
    expect(fileInput().accept).toBe('image/png,image/jpeg,image/webp');

    choose(new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The picture must be 2 MB or smaller.')).toBeTruthy();

    choose(png());
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Your picture' }).getAttribute('src')).toMatch(/^data:image\/png;base64,/),
    );
    expect(screen.queryByText('The picture must be 2 MB or smaller.')).toBeNull();
    await host.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeTruthy();
    const upload = host.requests.find(
      (r) => r.method === 'POST' && r.path === '/api/identity/user-management/users/me/picture',
    );
    expect(upload?.body).toBeInstanceOf(File);
    expect((upload?.body as File).type).toBe('image/png');
  });

  it('removes the picture on save, and shows the spec message when the upload fails', async () => {
    const host = await renderInTestHost(<ProfilePage />, {
      apis: {
        'GET /identity/session': account(PICTURE_URL),
        'GET /identity/user-management/users/:id/picture': { data_url: SAVED_DATA_URL },
        'PATCH /identity/user-management/users/me': { data: { type: 'user', id: 'u-1' } },
        'DELETE /identity/user-management/users/me/picture': () => new Response(null, { status: 204 }),
        'POST /identity/user-management/users/me/picture': () =>
          new Response(JSON.stringify({ status: 400, detail: 'The picture must be a PNG, JPEG or WebP image.' }), {
            status: 400,
            headers: { 'content-type': 'application/problem+json' },
          }),
      },
    });
    await screen.findByRole('img', { name: 'Your picture' });
    choose(png());
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Your picture' }).getAttribute('src')).toMatch(/^data:image\/png/),
    );
    await host.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("We're sorry, but we were unable to save your changes.")).toBeTruthy();

    await host.user.click(screen.getByRole('button', { name: 'Remove picture' }));
    expect(screen.queryByRole('img', { name: 'Your picture' })).toBeNull();
    await host.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeTruthy();
    expect(
      host.requests.some((r) => r.method === 'DELETE' && r.path === '/api/identity/user-management/users/me/picture'),
    ).toBe(true);
  });
});
