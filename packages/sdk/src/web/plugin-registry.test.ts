import { describe, expect, it } from 'vitest';
import { SDK_API_VERSION } from './api-version.js';
import { definePlugin, defineRoute } from './define-plugin.js';
import { InvalidLayoutError, LAYOUTS } from './layouts.js';
import { PluginValidationError } from './manifest-validation.js';
import type { PluginManifest, PluginManifestInput } from './plugin-manifest.js';
import { createPluginRegistry } from './plugin-registry.js';
import { createRouteRef, normalizePath } from './route-ref.js';
import { createSlotRef } from './slot-ref.js';

const page = async () => ({ default: () => null });
const claimsRef = createRouteRef({ name: 'claims:list', path: '/claims' });
const exposuresRef = createRouteRef({ name: 'claims:exposures', path: '/claims/:claimId/exposures' });

function claimsPlugin(overrides: Partial<PluginManifestInput> = {}): PluginManifest {
  return definePlugin({
    id: 'claims',
    title: 'Claims',
    moduleKey: 'claims',
    routes: [
      defineRoute(claimsRef, { meta: { layout: 'default' }, loader: page }),
      defineRoute(exposuresRef, { meta: { layout: 'full-page' }, loader: page }),
    ],
    nav: [{ id: 'claims', title: 'Claims', to: claimsRef, area: 'main', order: 40 }],
    commands: [{ id: 'claims.open', title: 'Open claim', run: () => undefined }],
    ...overrides,
  });
}

/** Builds a manifest without definePlugin's own validation, to test what the registry catches. */
function raw(input: PluginManifestInput): PluginManifest {
  return {
    kind: 'plugin-manifest',
    apiVersion: SDK_API_VERSION,
    moduleKey: input.moduleKey,
    routes: [],
    nav: [],
    commands: [],
    shortcuts: [],
    quickSearch: [],
    activityPanels: [],
    slots: [],
    ...input,
  } as PluginManifest;
}

describe('definePlugin', () => {
  it('fills empty contribution lists and stamps the SDK API version', () => {
    const manifest = definePlugin({ id: 'hello', title: 'Hello' });
    expect(manifest.apiVersion).toBe(SDK_API_VERSION);
    expect(manifest.routes).toEqual([]);
    expect(manifest.commands).toEqual([]);
    expect(manifest.moduleKey).toBeUndefined();
  });

  it.each(LAYOUTS)('accepts the layout %s', (layout) => {
    expect(() =>
      definePlugin({ id: 'p', title: 'P', routes: [{ name: 'p:x', path: '/x', meta: { layout } }] }),
    ).not.toThrow();
  });

  it('throws on any other layout, naming it', () => {
    expect(() =>
      definePlugin({
        id: 'p',
        title: 'P',
        routes: [{ name: 'p:x', path: '/x', meta: { layout: 'fullpage' as never } }],
      }),
    ).toThrow(/invalid layout "fullpage"/);
  });

  it('reports every problem of a manifest at once', () => {
    try {
      definePlugin({
        id: 'Bad Id',
        title: '',
        routes: [
          { name: 'a', path: '/a', meta: {} },
          { name: 'a', path: '/a', meta: {} },
        ],
        commands: [{ id: 'x', title: 'X', when: 'role ==', run: () => undefined }],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PluginValidationError);
      const problems = (error as PluginValidationError).problems;
      expect(problems).toContain('title is required');
      expect(problems).toContain("duplicate route name 'a'");
      expect(problems).toContain("duplicate route path '/a'");
      expect(problems.some((p) => p.startsWith('id "Bad Id"'))).toBe(true);
      expect(problems.some((p) => p.includes("command 'x'") && p.includes('position 7'))).toBe(true);
    }
  });

  it('refuses shortcuts with malformed keys and nav entries without a route ref', () => {
    expect(() => definePlugin({ id: 'p', title: 'P', shortcuts: [{ key: 'hyper+k', command: 'p.x' }] })).toThrow(
      /unknown modifier 'hyper'/,
    );
    expect(() =>
      definePlugin({
        id: 'p',
        title: 'P',
        nav: [{ id: 'n', title: 'N', to: '/claims' as never, area: 'main', order: 1 }],
      }),
    ).toThrow(/'to' must be a route ref/);
  });
});

describe('plugin registry', () => {
  it('throws InvalidLayoutError at registration for a bad layout', () => {
    const registry = createPluginRegistry();
    const manifest = raw({
      id: 'p',
      title: 'P',
      routes: [{ name: 'p:x', path: '/x', meta: { layout: 'sidebar' as never } }],
    });
    expect(() => registry.register(manifest)).toThrow(InvalidLayoutError);
    expect(registry.plugins()).toHaveLength(0);
  });

  it('refuses duplicate plugin ids, route names, route paths and command ids across plugins', () => {
    const registry = createPluginRegistry();
    registry.register(claimsPlugin());
    expect(() => registry.register(claimsPlugin())).toThrow(/plugin id 'claims' is already registered/);
    const clash = definePlugin({
      id: 'other',
      title: 'Other',
      routes: [
        { name: 'claims:list', path: '/other', meta: {} },
        { name: 'other:x', path: '/claims/:id/exposures/', meta: {} },
      ],
      commands: [{ id: 'claims.open', title: 'Dup', run: () => undefined }],
    });
    try {
      registry.register(clash);
      expect.unreachable();
    } catch (error) {
      expect((error as PluginValidationError).problems).toEqual([
        "route name 'claims:list' is already registered by plugin 'claims'",
        "route path '/claims/:id/exposures/' is already registered by plugin 'claims'",
        "command 'claims.open' is already registered by plugin 'claims'",
      ]);
    }
    // All-or-nothing: nothing of the refused plugin is visible.
    expect(registry.plugins().map((p) => p.id)).toEqual(['claims']);
    expect(registry.routeByName('other:x')).toBeUndefined();
  });

  it('exposes routes with their plugin and module key', () => {
    const registry = createPluginRegistry();
    registry.register(claimsPlugin());
    expect(registry.routeByName('claims:exposures')).toMatchObject({
      path: '/claims/:claimId/exposures',
      pluginId: 'claims',
      moduleKey: 'claims',
      meta: { layout: 'full-page' },
    });
  });

  it('sorts nav per area by order, keeping registration order for ties', () => {
    const registry = createPluginRegistry();
    const a = createRouteRef({ name: 'a:home', path: '/a' });
    const b = createRouteRef({ name: 'b:home', path: '/b' });
    registry.register(
      definePlugin({
        id: 'a',
        title: 'A',
        routes: [defineRoute(a, { meta: {} })],
        nav: [
          { id: 'a1', title: 'A1', to: a, area: 'main', order: 20 },
          { id: 'a2', title: 'A2', to: a, area: 'sub', order: 1 },
        ],
      }),
    );
    registry.register(
      definePlugin({
        id: 'b',
        title: 'B',
        routes: [defineRoute(b, { meta: {} })],
        nav: [
          { id: 'b1', title: 'B1', to: b, area: 'main', order: 10 },
          { id: 'b2', title: 'B2', to: b, area: 'main', order: 20 },
        ],
      }),
    );
    expect(registry.nav('main').map((n) => n.id)).toEqual(['b1', 'a1', 'b2']);
    expect(registry.nav('sub').map((n) => n.id)).toEqual(['a2']);
    expect(registry.nav('agent')).toEqual([]);
  });

  it('finds nav entries whose route nobody registered', () => {
    const registry = createPluginRegistry();
    const ghost = createRouteRef({ name: 'ghost:home', path: '/ghost' });
    registry.register(
      definePlugin({ id: 'g', title: 'G', nav: [{ id: 'g', title: 'G', to: ghost, area: 'main', order: 1 }] }),
    );
    expect(registry.danglingNav().map((n) => n.id)).toEqual(['g']);
  });

  it('groups slot contributions by versioned slot id', () => {
    const v1 = createSlotRef<{ riskId: string }>('quote:risk-edit:button-row');
    const v2 = createSlotRef<{ riskId: string; readOnly: boolean }>('quote:risk-edit:button-row', { version: 2 });
    const registry = createPluginRegistry();
    registry.register(
      definePlugin({
        id: 'extras',
        title: 'Extras',
        slots: [
          { slot: v1, id: 'late', order: 2, component: () => null },
          { slot: v1, id: 'early', order: 1, component: () => null },
          { slot: v2, id: 'new', component: () => null },
        ],
      }),
    );
    expect(registry.slotContributions(v1).map((c) => c.item.id)).toEqual(['early', 'late']);
    expect(registry.slotContributions(v2).map((c) => c.item.id)).toEqual(['new']);
  });

  it('lists quick search providers and commands with their plugin', () => {
    const registry = createPluginRegistry();
    registry.register(
      claimsPlugin({
        quickSearch: [
          {
            id: 'claims',
            type: 'Claim',
            typePlural: 'Claims',
            search: async () => [],
            toItem: () => ({ id: '', title: '', to: '/' }),
          },
        ],
      }),
    );
    expect(registry.quickSearchProvider('claims')?.type).toBe('Claim');
    expect(registry.commands()).toEqual([{ pluginId: 'claims', item: expect.objectContaining({ id: 'claims.open' }) }]);
  });
});

describe('normalizePath', () => {
  it('treats parameter names and trailing slashes as the same shape', () => {
    expect(normalizePath('/claims/:claimId/')).toBe(normalizePath('/claims/:id'));
    expect(normalizePath('/users/manage/:x?')).not.toBe(normalizePath('/users/manage/:x'));
    expect(normalizePath('/')).toBe('/');
  });
});

describe('slot refs', () => {
  it('carry a versioned key and refuse malformed ids', () => {
    expect(createSlotRef('quote:risk-edit:button-row', { version: 3 }).key).toBe('quote:risk-edit:button-row@3');
    expect(() => createSlotRef('ButtonRow')).toThrow(/area:screen:place/);
    expect(() => createSlotRef('quote:x', { version: 0 })).toThrow(/positive integer/);
  });
});
