// @vitest-environment node
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sameProgram, sameProgramInputs } from './fixtures/same-program.js';
import * as rules from './index.js';

// jsdom ships no types here; only the constructor and the window's eval and close are used.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string, options: object) => { window: { eval(code: string): unknown; close(): void } };
};

/**
 * The one interpreter gives identical results in Node and in a browser. The "browser" is a jsdom
 * window: the rules module is bundled by esbuild for the browser platform (so it cannot reach a Node
 * built-in) and evaluated in the window's own JavaScript realm, then both run the same fixtures.
 */
it('runs the same fixtures with identical results in Node and in a browser realm', async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    logLevel: 'silent',
  });
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { runScripts: 'outside-only' });
  const window = dom.window;
  window.eval(
    `(function () { var module = { exports: {} }; var exports = module.exports;\n${bundle.outputFiles[0]!.text}\nwindow.AtriumRules = module.exports; })();`,
  );

  // The same program in both worlds (fixtures/same-program.ts; in Chromium too: the rules e2e file
  // interpreter-chromium.e2e.test.ts).
  const inputs = sameProgramInputs();
  const inNode = sameProgram(rules, ...inputs);
  const inBrowser = window.eval(
    `(${sameProgram.toString()})(AtriumRules, ${inputs.map((i) => JSON.stringify(i)).join(', ')})`,
  ) as string;
  expect(JSON.parse(inNode).runs[0].issues.length).toBeGreaterThan(0);
  expect(JSON.parse(inNode).runaway[0].code).toBe('step_budget');
  expect(inBrowser).toBe(inNode);
  dom.window.close();
});
