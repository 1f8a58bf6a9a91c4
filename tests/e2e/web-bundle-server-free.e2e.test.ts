import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web half imports resource declarations' shared half (`@atrium/sdk/shared`), never their server
 * half: no module of drizzle-orm (or the server SDK) may reach the built app. Read from the source
 * maps, which name every module a chunk was built from.
 */
// As browser.ts finds it (not imported: this test needs no browser).
const WEB_DIST = process.env.ATRIUM_E2E_WEB_DIST
  ? path.resolve(process.env.ATRIUM_E2E_WEB_DIST)
  : path.resolve(import.meta.dirname, '../../dist/web');

describe('the built web app', () => {
  it('holds no drizzle-orm and no server SDK module', () => {
    const maps = readdirSync(path.join(WEB_DIST, 'assets')).filter((name) => name.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(10);
    const offenders: string[] = [];
    let sharedSeen = false;
    for (const name of maps) {
      const { sources } = JSON.parse(readFileSync(path.join(WEB_DIST, 'assets', name), 'utf8')) as {
        sources: string[];
      };
      for (const source of sources) {
        if (/node_modules\/drizzle-orm\/|packages\/sdk\/src\/server\//.test(source))
          offenders.push(`${name}: ${source}`);
        if (source.includes('packages/sdk/src/shared/')) sharedSeen = true;
      }
    }
    expect(offenders).toEqual([]);
    // The check reads real module names: the shared half is there, so a server module would be too.
    expect(sharedSeen).toBe(true);
  });
});
