import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestServer } from '@atrium/sdk/testing';
import { launchBrowser, startAppServer } from './browser.js';

describe('the built app in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads the SPA with the demo carrier and no console errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.getByText('Atrium Mutual Insurance').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await page.close();
  });

  it('fetches the code the entry needs in a handful of requests, not one per shared module', async () => {
    // scripts/startup-chunk-plugin.ts: the entry's static imports travel as one chunk. Without it
    // the page fetched ~30 small chunks before the entry could run (six at a time over HTTP/1.1).
    const html = await (await fetch(`${server.url}/`)).text();
    const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.some((s) => /\/assets\/startup-[\w-]+\.js$/.test(s!))).toBe(true);
    expect(scripts.length).toBeLessThanOrEqual(6);
  });

  it('answers /api/health from the same origin as the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const health = await page.evaluate(async () => (await fetch('/api/health')).json());
    expect(health).toMatchObject({ status: 'ok', database: server.databaseKind });
    await page.close();
  });
});
