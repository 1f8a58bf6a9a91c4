import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as rules from '@atrium/rating/rules';
import { sameProgram, sameProgramInputs } from '../../../../packages/rating/src/rules/fixtures/same-program.js';
import { launchBrowser } from '../../../../tests/e2e/browser.js';

/**
 * The one interpreter gives identical results in Node and in Chromium (issue 16): the rules module
 * bundled for the browser, as the editor's live preview loads it, runs the same fixtures as Node in
 * a blank Chromium page — rules, contexts, a runaway stopped at its step budget, the rule tests and
 * the printed texts. No server: only the browser. (runtimes.test.ts does the same in a jsdom realm.)
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

it('runs the same fixtures with identical results in Node and in Chromium', async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../../../packages/rating/src/rules/index.ts', import.meta.url))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'AtriumRules',
    target: 'es2022',
    logLevel: 'silent',
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const inputs = sameProgramInputs();
    const inNode = sameProgram(rules, ...inputs);
    const inChromium = await page.evaluate(
      `(${sameProgram.toString()})(AtriumRules, ${inputs.map((i) => JSON.stringify(i)).join(', ')})`,
    );
    expect(await page.evaluate(() => navigator.userAgent)).toMatch(/Chrome/);
    expect(JSON.parse(inNode).runaway[0].code).toBe('step_budget');
    expect(inChromium).toBe(inNode);
  } finally {
    await context.close();
  }
});
