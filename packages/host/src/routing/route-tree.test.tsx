// @vitest-environment jsdom
import { createRouteRef, definePlugin, InvalidLayoutError, type Layout, type PluginManifest } from '@atrium/sdk';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createHostPlugin } from '../host-plugin.js';
import { createHostRuntime } from '../host-runtime.js';
import { renderHost, sessionFor, type FakeBackend } from '../testing/render-host.js';
import { layoutOf } from './route-tree.js';

const page = (text: string) => async () => ({ default: () => <p>{text}</p> });

function layoutsPlugin(
  loaders: Partial<Record<Layout, () => Promise<{ default: () => React.JSX.Element }>>> = {},
): PluginManifest {
  const layouts: Layout[] = [
    'default',
    'default--no-container-padding',
    'full-page',
    'full-page--no-container-padding',
    'component-only',
  ];
  return definePlugin({
    id: 'layouts',
    title: 'Layouts',
    routes: [
      ...layouts.map((layout) => ({
        name: `layouts:${layout}`,
        path: `/layouts/${layout}`,
        meta: { layout, requiresAuth: false },
        loader: loaders[layout] ?? page(`page in ${layout}`),
      })),
      {
        name: 'layouts:unnamed-layout',
        path: '/layouts/named-only',
        meta: { requiresAuth: false },
        loader: page('named page'),
      },
      { path: '/layouts/nothing', meta: { requiresAuth: false }, loader: page('should not render') },
    ],
  });
}

describe('router built from manifests', () => {
  it.each([
    ['default', true],
    ['default--no-container-padding', true],
    ['full-page', false],
    ['full-page--no-container-padding', false],
  ] as const)('renders %s pages in their layout (sidebar: %s)', async (layout, sidebar) => {
    renderHost({ path: `/layouts/${layout}`, manifests: [layoutsPlugin()] });
    const text = await screen.findByText(`page in ${layout}`);
    expect(text.closest('[data-layout]')?.getAttribute('data-layout')).toBe(layout);
    expect(text.closest('[data-padded]')?.getAttribute('data-padded')).toBe(
      String(!layout.includes('no-container-padding')),
    );
    expect(screen.queryByRole('navigation', { name: 'Main' }) !== null).toBe(sidebar);
    expect(await screen.findByText('Atrium Mutual Insurance')).toBeTruthy();
  });

  it('renders component-only pages with no shell around them', async () => {
    renderHost({ path: '/layouts/component-only', manifests: [layoutsPlugin()] });
    const text = await screen.findByText('page in component-only');
    expect(text.closest('[data-layout]')?.getAttribute('data-layout')).toBe('component-only');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('puts a named route without a layout in the default layout', async () => {
    renderHost({ path: '/layouts/named-only', manifests: [layoutsPlugin()] });
    const text = await screen.findByText('named page');
    expect(text.closest('[data-layout]')?.getAttribute('data-layout')).toBe('default');
  });

  it('renders nothing for a route with neither layout nor name', async () => {
    const { container, router } = renderHost({ path: '/layouts/nothing', manifests: [layoutsPlugin()] });
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText('should not render')).toBeNull();
    expect(screen.queryByText('Page not found')).toBeNull();
    expect(container.querySelector('[data-layout]')).toBeNull();
    expect(layoutOf({ path: '/x', meta: {}, pluginId: 'p', moduleKey: undefined })).toBeUndefined();
  });

  it('loads a page only when it is first opened', async () => {
    const loader = vi.fn(page('lazy page'));
    const { router } = renderHost({ path: '/layouts/default', manifests: [layoutsPlugin({ 'full-page': loader })] });
    await screen.findByText('page in default');
    expect(loader).not.toHaveBeenCalled();
    await router.navigate('/layouts/full-page');
    await screen.findByText('lazy page');
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('refuses a manifest with an unknown layout at registration', () => {
    const valid = definePlugin({ id: 'bad', title: 'Bad', routes: [{ name: 'bad:page', path: '/bad', meta: {} }] });
    // Built without definePlugin (which would throw first), as another SDK copy might.
    const invalid = { ...valid, routes: [{ name: 'bad:page', path: '/bad', meta: { layout: 'sidebar' as Layout } }] };
    expect(() => createHostRuntime({ manifests: [createHostPlugin({ withLoginPlaceholder: true }), invalid] })).toThrow(
      InvalidLayoutError,
    );
  });

  it('refuses a plugin that takes a path the shell owns', () => {
    const forbidden = createRouteRef({ name: 'rogue:forbidden', path: '/forbidden' });
    const rogue = definePlugin({
      id: 'rogue',
      title: 'Rogue',
      routes: [{ name: forbidden.name, path: forbidden.path, meta: { layout: 'default' } }],
    });
    expect(() => createHostRuntime({ manifests: [createHostPlugin({ withLoginPlaceholder: true }), rogue] })).toThrow(
      /route path '\/forbidden'/,
    );
  });

  it('shows the not-found page for unknown paths', async () => {
    renderHost({ path: '/no/such/thing' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('sends classic links carrying the product slug to the module routes', async () => {
    const { location } = renderHost({ path: '/atrium/claims/information?claimId=42', session: sessionFor() });
    await waitFor(() => expect(location().pathname).toBe('/claims/42'));
  });

  it('shows the not-found page for a classic link with another slug than the configured one', async () => {
    const slug: FakeBackend = async (url) =>
      url.pathname === '/api/v2/settings/get_setting_value'
        ? new Response(JSON.stringify({ success: true, data: 'harbour' }), { status: 200 })
        : undefined;
    renderHost({ path: '/atrium/contacts/information?id=CON-1001', session: sessionFor(), backend: slug });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    const { location } = renderHost({
      path: '/harbour/contacts/information?id=CON-1001',
      session: sessionFor(),
      backend: slug,
    });
    await waitFor(() => expect(location().pathname).toBe('/contacts/CON-1001'));
  });
});
