import { describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '@atrium/sdk';
import { isRouteVisible, type VisibilityInputs } from './nav-visibility.js';

const route = (overrides: Partial<RegisteredRoute> & { meta?: RegisteredRoute['meta'] }): RegisteredRoute => ({
  name: 'x:page',
  path: '/x',
  pluginId: 'x',
  moduleKey: 'claims',
  ...overrides,
  meta: { layout: 'default', ...overrides.meta },
});

const inputs = (overrides: Partial<VisibilityInputs> = {}): VisibilityInputs => ({
  signedIn: true,
  enabledModules: new Set(['claims', 'rules']),
  viewable: (m) => m === 'claims' || m === 'users',
  ...overrides,
});

describe('navigation visibility', () => {
  it('shows a page with a permission of its own only once that permission is known to allow', () => {
    const assign = route({ meta: { permission: { resource: 'claims:claim', action: 'assign' } } });
    const answer = (allowed: boolean | undefined) => inputs({ permitted: () => allowed });
    expect(isRouteVisible(assign, answer(true))).toBe(true);
    expect(isRouteVisible(assign, answer(false))).toBe(false);
    expect(isRouteVisible(assign, answer(undefined))).toBe(false);
    expect(isRouteVisible(assign, inputs({ viewable: () => false, permitted: () => true }))).toBe(false);
  });
  it('shows a module the effective role may view', () => {
    expect(isRouteVisible(route({}), inputs())).toBe(true);
  });
  it('hides a module the role may not view, or whose answer is not in yet', () => {
    expect(isRouteVisible(route({ moduleKey: 'rules' }), inputs())).toBe(false);
    expect(isRouteVisible(route({}), inputs({ viewable: () => undefined }))).toBe(false);
  });
  it('hides a module that is not enabled even when viewable', () => {
    expect(isRouteVisible(route({ moduleKey: 'claims' }), inputs({ enabledModules: new Set() }))).toBe(false);
  });
  it('treats Users, My Account and All Products as always enabled', () => {
    expect(isRouteVisible(route({ moduleKey: 'users' }), inputs({ enabledModules: new Set() }))).toBe(true);
  });
  it('hides protected pages from someone who is not signed in', () => {
    expect(isRouteVisible(route({}), inputs({ signedIn: false }))).toBe(false);
  });
  it('shows public pages to everyone and login-only pages only to signed-out users', () => {
    expect(isRouteVisible(route({ meta: { requiresAuth: false } }), inputs({ signedIn: false }))).toBe(true);
    expect(isRouteVisible(route({ meta: { requiresAuth: false, loginOnly: true } }), inputs({ signedIn: true }))).toBe(
      false,
    );
  });
  it('shows pages of plugins without a module key to any signed-in user', () => {
    expect(isRouteVisible(route({ moduleKey: undefined }), inputs())).toBe(true);
  });
});
