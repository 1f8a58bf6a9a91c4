import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@atrium/sdk/testing';
import {
  startOpenIdProvider,
  TEST_REDIRECT_URI,
  type TestOpenIdProvider,
} from '../../plugins/identity/test/openid-provider.js';
import { launchBrowser, startAppServer } from './browser.js';

/**
 * Sign-in with an external OpenID Connect provider, in a real browser: the login page's "Sign in
 * with …" button, the provider (a real oidc-provider on a loopback port), and /login/idpresponse.
 * The provider only returns to the redirect URI it has registered (TEST_REDIRECT_URI), so the
 * browser opens the app at that origin and Playwright forwards those requests to the test server.
 */
const APP_ORIGIN = new URL(TEST_REDIRECT_URI).origin;

describe('sign-in with an external OpenID Connect provider', () => {
  let server: TestServer;
  let idp: TestOpenIdProvider;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, idp, browser] = await Promise.all([startAppServer(), startOpenIdProvider(), launchBrowser()]);
    const signIn = await server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@atrium.test', password: 'Atrium!demo1' }),
    });
    const token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
    const created = await server.fetch('/api/identity/oidc-providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Carrier SSO',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        link_by_email: true,
        redirect_uris: [TEST_REDIRECT_URI],
      }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await server?.close();
  });

  /** Routes still fetching when the context closes would reject after the test (the logo, say). */
  async function closeContext(context: BrowserContext): Promise<void> {
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  }

  async function appContext(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    // Fetched from the test server and fulfilled at the app's origin: a rewritten URL
    // (route.continue) would give the document the test server's origin, and the CSP ('self')
    // would then block every script the page loads from APP_ORIGIN.
    await context.route(`${APP_ORIGIN}/**`, async (route) => {
      const response = await route.fetch({
        url: route.request().url().replace(APP_ORIGIN, server.url),
        maxRedirects: 0,
      });
      await route.fulfill({ response });
    });
    // A redirect is not routed, so the provider's redirects become navigations by script (which
    // are), keeping its cookies: its last one goes back to the app's origin.
    await context.route(`${idp.issuer}/**`, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers()['location'];
      if (response.status() < 300 || response.status() >= 400 || !location) {
        await route.fulfill({ response });
        return;
      }
      const headers = Object.fromEntries(
        response
          .headersArray()
          .filter(({ name }) => name.toLowerCase() === 'set-cookie')
          .map(({ name, value }) => [name, value]),
      );
      const target = new URL(location, route.request().url()).href;
      await route.fulfill({
        status: 200,
        headers,
        contentType: 'text/html',
        body: `<script>location.replace(${JSON.stringify(target)})</script>`,
      });
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    return { context, page };
  }

  it('signs in through the provider and lands on the page it was sent away from', async () => {
    idp.signInAs({ sub: 'author-at-idp', email: 'author@atrium.test', email_verified: true, name: 'Parker Author' });
    const { context, page } = await appContext();
    await page.goto(`${APP_ORIGIN}/all-modules`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with Carrier SSO' }).click();
    await page.waitForURL((url) => url.pathname === '/all-modules', { timeout: 20_000 });
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    expect(await page.getByRole('button', { name: 'User menu' }).textContent()).toContain('Parker Author');
    expect(await page.evaluate(() => localStorage.getItem('atrium.identity.oidc.pending'))).toBeNull();
    await closeContext(context);
  });

  it('refuses a callback this browser did not start', async () => {
    const { context, page } = await appContext();
    await page.goto(`${APP_ORIGIN}/login/idpresponse?code=abc&state=forged`);
    await page.getByRole('alert').filter({ hasText: "Local state's nonce does not match received value" }).waitFor();
    await closeContext(context);
  });

  it('says so when the provider account is linked to nobody', async () => {
    idp.signInAs({ sub: 'stranger', email: 'stranger@example.com', email_verified: true });
    const { context, page } = await appContext();
    await page.goto(`${APP_ORIGIN}/login`);
    await page.getByRole('button', { name: 'Sign in with Carrier SSO' }).click();
    await page.waitForURL((url) => url.pathname === '/login/idpresponse', { timeout: 20_000 });
    await page.getByRole('alert').filter({ hasText: 'There was an error attempting to log in' }).waitFor();
    await closeContext(context);
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
