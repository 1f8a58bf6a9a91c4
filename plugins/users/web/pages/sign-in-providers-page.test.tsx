// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import SignInProvidersPage, { type SignInProvider } from './sign-in-providers-page.js';

const SSO: SignInProvider = {
  id: '3f7d1c52-7c1b-4a57-9d4c-2a6f0d6f3c11',
  name: 'Carrier SSO',
  issuer: 'https://sso.carrier.example',
  client_id: 'atrium-portal',
  has_client_secret: true,
  scopes: ['openid', 'email'],
  enabled: true,
  link_by_email: false,
  redirect_uris: ['https://portal.carrier.example/login/idpresponse'],
};

describe('sign-in providers page', () => {
  beforeAll(preloadTestHost);

  it('lists providers and edits one without resending its secret, unless a new one is typed', async () => {
    const host = await renderInTestHost(<SignInProvidersPage />, {
      apis: {
        'GET /identity/oidc-providers/all': { providers: [SSO] },
        'PATCH /identity/oidc-providers/:id': ({ body }: { body: unknown }) => ({ ...SSO, ...(body as object) }),
      },
    });
    const table = await screen.findByRole('table', { name: 'Sign-in providers' });
    expect(table.textContent).toContain('Carrier SSO');
    expect(table.textContent).toContain('Confidential (secret kept)');
    expect(within(table).getByText('Enabled')).toBeTruthy();

    await host.user.click(within(table).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Carrier SSO' });
    await host.user.click(within(dialog).getByLabelText('Enabled (listed on the sign-in page)'));
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(host.requests.find((r) => r.method === 'PATCH')).toBeTruthy());
    const sent = host.requests.find((r) => r.method === 'PATCH')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ enabled: false, client_id: 'atrium-portal', scopes: ['openid', 'email'] });
    expect('client_secret' in sent).toBe(false);
  });

  it('asks for a secret for a confidential client, and offers nothing to change without the permission', async () => {
    const host = await renderInTestHost(<SignInProvidersPage />, {
      apis: { 'GET /identity/oidc-providers/all': { providers: [] }, 'POST /identity/oidc-providers': SSO },
    });
    expect(await screen.findByText('No sign-in providers')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Add provider' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a sign-in provider' });
    await host.user.type(within(dialog).getByLabelText(/^Name/), 'Carrier SSO');
    await host.user.type(within(dialog).getByLabelText(/^Client ID/), 'atrium-portal');
    await host.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Enter the client secret, or choose a public client.',
    );
    expect(host.requests.some((r) => r.method === 'POST' && r.path.includes('oidc-providers'))).toBe(false);
    host.unmount();

    await renderInTestHost(<SignInProvidersPage />, {
      apis: { 'GET /identity/oidc-providers/all': { providers: [SSO] } },
      canView: (resource) => resource !== 'identity:oidc-provider',
    });
    await screen.findByRole('table', { name: 'Sign-in providers' });
    expect(screen.queryByRole('button', { name: 'Add provider' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
  });
});
