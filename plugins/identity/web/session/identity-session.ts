import { createSessionClient } from './session-client.js';

/**
 * The app's one identity session. The host installs its provider (see ../session-provider.ts); the
 * sign-in, role and My Account pages use it for their calls.
 */
export const identitySession = createSessionClient({
  onSignedOut: () => {
    // A background check or a refused token ended the session: show the login page, keeping the
    // place to come back to (the route guard's rule for protected pages).
    const { pathname, search, hash } = window.location;
    if (pathname === '/login' || pathname.startsWith('/login/')) return;
    const wanted = `${pathname}${search}${hash}`;
    window.location.assign(pathname === '/' ? '/login' : `/login?${new URLSearchParams({ redirect: wanted })}`);
  },
});

export type { AuthenticationResult, HostSession, SessionClient, SessionHost, SessionUser } from './session-client.js';
