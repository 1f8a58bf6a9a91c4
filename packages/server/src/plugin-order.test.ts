import { describe, expect, it } from 'vitest';
import { createServiceRef, defineServerPlugin, provideService, type Queryable } from '@atrium/sdk/server';
import { orderPlugins } from './plugin-order.js';
import { serviceResolver } from './plugin-services.js';

const plugin = (id: string, deps: string[] = []) => defineServerPlugin({ id, deps });

describe('plugin order', () => {
  it('puts dependencies first and keeps the given order otherwise', () => {
    const ordered = orderPlugins([
      plugin('claims', ['identity', 'core']),
      plugin('core'),
      plugin('identity', ['core']),
      plugin('notes'),
    ]);
    expect(ordered.map((p) => p.id)).toEqual(['core', 'identity', 'claims', 'notes']);
  });

  it('names a missing dependency', () => {
    expect(() => orderPlugins([plugin('claims', ['policies'])])).toThrow(
      "Server plugin 'claims' depends on 'policies', which is not installed.",
    );
  });

  it('names a cycle', () => {
    expect(() => orderPlugins([plugin('a', ['b']), plugin('b', ['a'])])).toThrow('a → b → a');
  });

  it('refuses two plugins with one id', () => {
    expect(() => orderPlugins([plugin('a'), plugin('a')])).toThrow("share the id 'a'");
  });

  it('refuses a malformed id at definition', () => {
    expect(() => defineServerPlugin({ id: 'Claims Module' })).toThrow(/lowercase/);
  });

  describe('services', () => {
    const tally = createServiceRef<{ bump(tx: Queryable, name: string): Promise<number> }>('counter.tally');
    const provider = defineServerPlugin({
      id: 'counter',
      provides: { services: [provideService(tally, () => ({ bump: async () => 1 }))] },
    });

    it('puts the provider of a service before its consumer', () => {
      const ordered = orderPlugins([defineServerPlugin({ id: 'notes', deps: [tally] }), provider]);
      expect(ordered.map((p) => p.id)).toEqual(['counter', 'notes']);
    });

    it('puts an installed optional dependency first and skips an absent one', () => {
      const notes = defineServerPlugin({ id: 'notes', optionalDeps: [tally, 'audit'] });
      expect(orderPlugins([notes, plugin('audit'), provider]).map((p) => p.id)).toEqual(['counter', 'audit', 'notes']);
      expect(orderPlugins([notes]).map((p) => p.id)).toEqual(['notes']);
    });

    it('names a service no installed plugin provides', () => {
      expect(() => orderPlugins([defineServerPlugin({ id: 'notes', deps: [tally] })])).toThrow(
        "Server plugin 'notes' needs the service 'counter.tally', which no installed plugin provides.",
      );
    });

    it('refuses two providers of one service', () => {
      const other = defineServerPlugin({
        id: 'other',
        provides: { services: [provideService(tally, () => ({ bump: async () => 2 }))] },
      });
      expect(() => orderPlugins([provider, other])).toThrow(
        "'counter.tally' is provided by both 'counter' and 'other'",
      );
    });

    it('type-checks an implementation against its ref', () => {
      // @ts-expect-error bump must take the caller's transaction and a name and answer a number
      provideService(tally, () => ({ bump: async (_tx: Queryable, _name: number) => 'one' }));
      // @ts-expect-error a service's methods take the caller's transaction first
      createServiceRef<{ bump(name: string): number }>('counter.bad');
      expect(() => createServiceRef('Counter')).toThrow(/'<plugin>.<service>'/);
    });

    it('builds a service once; an optional one without a provider is null, a required one throws', () => {
      let built = 0;
      const counting = defineServerPlugin({
        id: 'counter',
        provides: { services: [provideService(tally, () => (built++, { bump: async () => 1 }))] },
      });
      const withProvider = serviceResolver([counting], () => ({}) as never);
      expect(withProvider.optionalService(tally)).toBe(withProvider.service(tally));
      expect(built).toBe(1);
      const without = serviceResolver([], () => ({}) as never);
      expect(without.optionalService(tally)).toBeNull();
      expect(() => without.service(tally)).toThrow("No installed plugin provides the service 'counter.tally'.");
    });
  });
});
