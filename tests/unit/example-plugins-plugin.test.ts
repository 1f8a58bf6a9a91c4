import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplePlugins } from '../../scripts/example-plugins-plugin.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hello = path.join(ROOT, 'plugins/hello/web/plugin.ts');
const claims = path.join(ROOT, 'plugins/claims/web/plugin.ts');

/** Runs the plugin's load hook as Vite would for one module id. */
function load(plugin: ReturnType<typeof examplePlugins>, id: string): unknown {
  const hook = plugin.load as (id: string) => unknown;
  return hook.call({}, id);
}

describe('example plugins in builds', () => {
  it('stubs the hello plugin out of a production build, and only it', () => {
    const production = examplePlugins({ include: false });
    expect(production.apply).toBe('build');
    expect(load(production, hello)).toMatch(/export default undefined;/);
    expect(load(production, `${hello}?import`)).toMatch(/export default undefined;/);
    expect(load(production, claims)).toBeNull();
    expect(load(production, path.join(ROOT, 'plugins/hello/web/pages/hello-page.tsx'))).toBeNull();
  });

  it('keeps it when the build asks for the examples (npm test)', () => {
    expect(load(examplePlugins({ include: true }), hello)).toBeNull();
  });
});
