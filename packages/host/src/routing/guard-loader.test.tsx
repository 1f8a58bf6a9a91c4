// @vitest-environment jsdom
import { definePlugin } from '@atrium/sdk';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderHost, sessionFor } from '../testing/render-host.js';

/** The guard as the router runs it: before every navigation, from the real stores. */
const claimsPlugin = definePlugin({
  id: 'claims-test',
  title: 'Claims',
  moduleKey: 'claims',
  routes: [
    {
      name: 'claims:dashboard',
      path: '/claims',
      meta: { layout: 'default' },
      loader: async () => ({ default: () => <p>claims dashboard</p> }),
    },
    {
      name: 'claims:public',
      path: '/claims-help',
      meta: { layout: 'default', requiresAuth: false },
      loader: async () => ({ default: () => <p>claims help</p> }),
    },
  ],
});

describe('guard loader', () => {
  it('sends a protected page to login with the wanted path, and shows the placeholder sign-in', async () => {
    const { location } = renderHost({ path: '/claims?status=open', manifests: [claimsPlugin] });
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(new URLSearchParams(location().search).get('redirect')).toBe('/claims?status=open');
    expect(await screen.findByText('Sign-in is not available yet.')).toBeTruthy();
  });

  it('omits the redirect for the root', async () => {
    const { location } = renderHost({ path: '/' });
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(location().search).toBe('');
  });

  it('refreshes the session before every navigation', async () => {
    const refresh = vi.fn(async () => null);
    const { router } = renderHost({ path: '/claims-help', manifests: [claimsPlugin], refresh });
    await screen.findByText('claims help');
    const before = refresh.mock.calls.length;
    await router.navigate('/no-such-page');
    await router.navigate('/claims-help');
    expect(refresh.mock.calls.length).toBe(before + 2);
  });

  it("starts loading the page's code before the session check answers", async () => {
    let answer: (value: null) => void = () => undefined;
    const refresh = vi.fn(() => new Promise<null>((resolve) => (answer = resolve)));
    const pageLoader = vi.fn(async () => ({ default: () => <p>reports page</p> }));
    const plugin = definePlugin({
      id: 'reports-test',
      title: 'Reports',
      routes: [
        {
          name: 'reports:home',
          path: '/reports-help',
          meta: { layout: 'default', requiresAuth: false },
          loader: pageLoader,
        },
      ],
    });
    renderHost({ path: '/reports-help', manifests: [plugin], refresh });
    await waitFor(() => expect(refresh).toHaveBeenCalled());
    expect(pageLoader).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('reports page')).toBeNull();
    answer(null);
    expect(await screen.findByText('reports page')).toBeTruthy();
    expect(pageLoader).toHaveBeenCalledTimes(1);
  });

  it('lets a signed-in user whose role may view the module in', async () => {
    renderHost({ path: '/claims', manifests: [claimsPlugin], session: sessionFor(), effectiveRole: 'Adjuster' });
    expect(await screen.findByText('claims dashboard')).toBeTruthy();
  });

  it('sends a signed-in user whose role may not view the module to /forbidden', async () => {
    const { location } = renderHost({
      path: '/claims',
      manifests: [claimsPlugin],
      session: sessionFor(),
      effectiveRole: 'Underwriter',
      viewable: (module) => module !== 'claims',
    });
    await waitFor(() => expect(location().pathname).toBe('/forbidden'));
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeTruthy();
  });

  it('does not check the module before a role is chosen', async () => {
    renderHost({ path: '/claims', manifests: [claimsPlugin], session: sessionFor(), viewable: () => false });
    expect(await screen.findByText('claims dashboard')).toBeTruthy();
  });

  it('sends a signed-in user away from the login page to the redirect target, never off-site', async () => {
    const first = renderHost({
      path: '/login?redirect=%2Fclaims',
      manifests: [claimsPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await waitFor(() => expect(first.location().pathname).toBe('/claims'));
    first.unmount();
    const second = renderHost({
      path: '/login?redirect=%2F%2Fevil.example',
      manifests: [claimsPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await waitFor(() => expect(second.location().pathname).toBe('/'));
  });

  it('signs out a user past the session timeout and keeps the wanted path', async () => {
    const { auth, router, location } = renderHost({
      path: '/claims-help',
      manifests: [claimsPlugin],
      session: sessionFor(),
      effectiveRole: 'Adjuster',
    });
    await screen.findByText('claims help');
    auth.getState().setSessionTimeoutMinutes(10);
    auth.getState().touch(Date.now() - 11 * 60_000);
    await router.navigate('/claims');
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(new URLSearchParams(location().search).get('redirect')).toBe('/claims');
    expect(auth.getState().session).toBeNull();
  });

  it('signs the user out when the refresh fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = false;
    const session = sessionFor();
    const { auth, router, location } = renderHost({
      path: '/claims',
      manifests: [claimsPlugin],
      session,
      effectiveRole: 'Adjuster',
      refresh: async () => {
        if (fail) throw new Error('refresh token expired');
        return session;
      },
    });
    await screen.findByText('claims dashboard');
    fail = true;
    await router.navigate('/claims?page=2');
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(auth.getState().session).toBeNull();
    expect(error).toHaveBeenCalledWith('Unable to refresh session', expect.any(Error));
    error.mockRestore();
  });

  it('reloads a navigation carrying the pageReload flag without the flag', async () => {
    const reload = vi.fn();
    renderHost({ path: '/claims-help?pageReload=true&x=1', manifests: [claimsPlugin], reload });
    await waitFor(() => expect(reload).toHaveBeenCalledWith('/claims-help?x=1'));
  });
});
