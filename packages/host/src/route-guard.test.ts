import { describe, expect, it } from 'vitest';
import {
  decideNavigation,
  loginPathFor,
  moduleCheckNeeded,
  permissionCheckNeeded,
  type GuardRouteMeta,
  type GuardSession,
  type GuardTarget,
} from './route-guard.js';

const origin = 'https://portal.example.com';
const at = (path: string): GuardTarget => {
  const url = new URL(path, origin);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};
const protectedPage: GuardRouteMeta = { requiresAuth: true, loginOnly: false, exempt: false, module: 'policies' };
const publicPage: GuardRouteMeta = { requiresAuth: false, loginOnly: false, exempt: false };
const loginPage: GuardRouteMeta = { requiresAuth: false, loginOnly: true, exempt: false };
const forbiddenPage: GuardRouteMeta = { requiresAuth: true, loginOnly: false, exempt: true };
const signedIn: GuardSession = {
  refreshFailed: false,
  authenticated: true,
  sessionTimedOut: false,
  effectiveRole: 'Administrator',
  moduleViewable: true,
};
const anonymous: GuardSession = { ...signedIn, authenticated: false, effectiveRole: null, moduleViewable: undefined };

describe('route guard', () => {
  describe('pageReload flag', () => {
    it('reloads the location with the flag removed', () => {
      expect(decideNavigation(at('/?pageReload=true'), publicPage, signedIn, origin)).toEqual({
        action: 'reload',
        href: '/',
        signOut: false,
      });
    });
    it('keeps the other query parameters and the hash', () => {
      expect(decideNavigation(at('/policies?tab=2&pageReload=1#notes'), protectedPage, signedIn, origin)).toEqual({
        action: 'reload',
        href: '/policies?tab=2#notes',
        signOut: false,
      });
    });
  });

  describe('session timeout', () => {
    it('signs out a user past the timeout and keeps the wanted path as the redirect target', () => {
      const decision = decideNavigation(
        at('/claims/7?tab=exposures'),
        protectedPage,
        { ...signedIn, sessionTimedOut: true },
        origin,
      );
      expect(decision).toEqual({
        action: 'redirect',
        to: '/login?redirect=%2Fclaims%2F7%3Ftab%3Dexposures',
        signOut: true,
      });
    });
    it('signs out on a public page too, and lets the page open', () => {
      expect(decideNavigation(at('/hello'), publicPage, { ...signedIn, sessionTimedOut: true }, origin)).toEqual({
        action: 'continue',
        signOut: true,
      });
    });
    it('does not apply to someone who is not signed in', () => {
      expect(decideNavigation(at('/hello'), publicPage, { ...anonymous, sessionTimedOut: true }, origin)).toEqual({
        action: 'continue',
        signOut: false,
      });
    });
  });

  describe('protected page without a session', () => {
    it('goes to login with the wanted path as the redirect query', () => {
      expect(decideNavigation(at('/policies'), protectedPage, anonymous, origin)).toEqual({
        action: 'redirect',
        to: '/login?redirect=%2Fpolicies',
        signOut: false,
      });
    });
    it('omits the redirect query for the root', () => {
      expect(decideNavigation(at('/'), protectedPage, anonymous, origin)).toEqual({
        action: 'redirect',
        to: '/login',
        signOut: false,
      });
      expect(loginPathFor(at('/'))).toBe('/login');
    });
    it('lets a public page open', () => {
      expect(decideNavigation(at('/hello'), publicPage, anonymous, origin)).toEqual({
        action: 'continue',
        signOut: false,
      });
    });
  });

  describe('login-only pages', () => {
    it('send a signed-in user to the redirect target', () => {
      expect(decideNavigation(at('/login?redirect=%2Fclaims%2F3'), loginPage, signedIn, origin)).toEqual({
        action: 'redirect',
        to: '/claims/3',
        signOut: false,
      });
    });
    it('send a signed-in user to / when there is no target', () => {
      expect(decideNavigation(at('/login'), loginPage, signedIn, origin)).toEqual({
        action: 'redirect',
        to: '/',
        signOut: false,
      });
    });
    it.each([
      '//evil.example',
      'https://evil.example/x',
      'javascript:alert(1)',
      '/\\evil.example',
      '/login',
      '/login/mfa',
    ])('replace the unsafe or looping target %s with /', (target) => {
      const path = `/login?${new URLSearchParams({ redirect: target })}`;
      expect(decideNavigation(at(path), loginPage, signedIn, origin)).toEqual({
        action: 'redirect',
        to: '/',
        signOut: false,
      });
    });
    it('open for someone who is not signed in', () => {
      expect(decideNavigation(at('/login?redirect=%2Fpolicies'), loginPage, anonymous, origin)).toEqual({
        action: 'continue',
        signOut: false,
      });
    });
  });

  describe('module authorization', () => {
    it('sends a user whose role may view the module but not do what the page needs to /forbidden', () => {
      const assignPage: GuardRouteMeta = {
        ...protectedPage,
        module: 'claims',
        permission: { resource: 'claims:claim', action: 'assign' },
      };
      expect(permissionCheckNeeded(assignPage, signedIn)).toBe(true);
      expect(permissionCheckNeeded(protectedPage, signedIn)).toBe(false);
      expect(
        decideNavigation(at('/claims/assign-claims'), assignPage, { ...signedIn, permitted: false }, origin),
      ).toEqual({ action: 'redirect', to: '/forbidden', signOut: false });
      expect(
        decideNavigation(at('/claims/assign-claims'), assignPage, { ...signedIn, permitted: true }, origin),
      ).toEqual({ action: 'continue', signOut: false });
      // Unanswered: the server decides (it checks every call anyway).
      expect(decideNavigation(at('/claims/assign-claims'), assignPage, signedIn, origin).action).toBe('continue');
    });

    it('sends a user whose effective role may not view the module to /forbidden', () => {
      expect(decideNavigation(at('/policies'), protectedPage, { ...signedIn, moduleViewable: false }, origin)).toEqual({
        action: 'redirect',
        to: '/forbidden',
        signOut: false,
      });
    });
    it('lets the page open when the module is viewable', () => {
      expect(decideNavigation(at('/policies'), protectedPage, signedIn, origin)).toEqual({
        action: 'continue',
        signOut: false,
      });
    });
    it('does not check while the effective role is unknown', () => {
      const session = { ...signedIn, effectiveRole: null, moduleViewable: false };
      expect(decideNavigation(at('/policies'), protectedPage, session, origin)).toEqual({
        action: 'continue',
        signOut: false,
      });
      expect(moduleCheckNeeded(protectedPage, session)).toBe(false);
    });
    it('skips exempt pages', () => {
      expect(decideNavigation(at('/forbidden'), forbiddenPage, { ...signedIn, moduleViewable: false }, origin)).toEqual(
        { action: 'continue', signOut: false },
      );
      expect(moduleCheckNeeded(forbiddenPage, signedIn)).toBe(false);
    });
    it('skips pages that do not need authentication', () => {
      expect(moduleCheckNeeded({ ...publicPage, module: 'hello' }, signedIn)).toBe(false);
      expect(
        decideNavigation(
          at('/hello'),
          { ...publicPage, module: 'hello' },
          { ...signedIn, moduleViewable: false },
          origin,
        ),
      ).toEqual({
        action: 'continue',
        signOut: false,
      });
    });
    it('asks for an evaluation only when the rule can apply', () => {
      expect(moduleCheckNeeded(protectedPage, signedIn)).toBe(true);
      expect(moduleCheckNeeded(protectedPage, anonymous)).toBe(false);
      expect(moduleCheckNeeded({ ...protectedPage, module: undefined }, signedIn)).toBe(false);
      expect(moduleCheckNeeded(protectedPage, { ...signedIn, sessionTimedOut: true })).toBe(false);
    });
  });

  describe('failed session refresh', () => {
    it('signs the user out and treats the navigation as anonymous', () => {
      expect(decideNavigation(at('/policies'), protectedPage, { ...signedIn, refreshFailed: true }, origin)).toEqual({
        action: 'redirect',
        to: '/login?redirect=%2Fpolicies',
        signOut: true,
      });
      expect(decideNavigation(at('/hello'), publicPage, { ...signedIn, refreshFailed: true }, origin)).toEqual({
        action: 'continue',
        signOut: true,
      });
    });
  });
});
