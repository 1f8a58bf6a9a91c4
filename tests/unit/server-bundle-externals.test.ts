import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { bundleEntry } from '../../scripts/build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const outdir = mkdtempSync(path.join(tmpdir(), 'atrium-bundle-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the server bundle’s external packages', () => {
  it('imports a package nested under a plugin from there, not the root’s other version by name', async () => {
    // ui-plugins depends on ajv 8, nested in its own node_modules; the root's ajv is eslint's 6.
    const rootAjv = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/ajv/package.json'), 'utf8')) as {
      version: string;
    };
    const nested = path.join(ROOT, 'plugins/ui-plugins/node_modules/ajv');
    const nestedAjv = JSON.parse(readFileSync(path.join(nested, 'package.json'), 'utf8')) as { version: string };
    expect(rootAjv.version).not.toBe(nestedAjv.version);

    await bundleEntry(path.join(ROOT, 'plugins/ui-plugins/server/configuration-schema.ts'), outdir);
    const code = readdirSync(outdir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(outdir, f), 'utf8'))
      .join('\n');
    expect(code).toContain(`from "${path.join(nested, 'dist/ajv.js')}"`);
    expect(code).not.toMatch(/from "ajv"/);
    // A package the root holds in the version the source would load stays a bare import.
    expect(code).toMatch(/from "zod(\/v4)?"/);
  });
});
