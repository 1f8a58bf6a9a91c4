import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

// The receiver listens on 127.0.0.1, which subscriptions may target only when the carrier allows it.
process.env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE = 'true';

/** An administrator creates a subscription, sends a test event and reads the attempt. */
describe('integrations in the browser', () => {
  const session = useE2eSession('integrations');
  let receiver: http.Server;
  let url = '';
  const bodies: string[] = [];
  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => (body += c.toString()));
      request.on('end', () => {
        bodies.push(body);
        response.end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/e2e-hooks`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('creates a subscription, sends a test event and shows the attempt', async () => {
    // Integrations is not in the navigation (spec): an administrator finds it in the user menu.
    const page = await session.signIn('admin@atrium.test', '/');
    await page.getByRole('button', { name: /user menu$/ }).click();
    await page.getByRole('menuitem', { name: 'Integrations' }).click();
    await page.waitForURL(/\/integrations\/dashboard$/);
    await page.getByRole('navigation', { name: 'Module' }).getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page
      .getByText(
        'Subscription creation started. It might take a few minutes for it to appear in the subscriptions list.',
      )
      .waitFor();
    expect(await page.getByTestId('subscription-secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: url }).click();
    await page.getByRole('heading', { name: url }).waitFor();
    await page.getByText('Active', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Delivered', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show attempts' }).click();
    await page.getByRole('cell', { name: 'HTTP 200' }).waitFor();
    await page.getByText('thanks', { exact: true }).waitFor();
    expect(bodies.some((b) => b.includes('integrations.webhook.tested'))).toBe(true);

    await page.goto(`${session.server.url}/integrations/exceptions`);
    await page.getByRole('heading', { name: 'Exceptions' }).waitFor();
    await page.getByText('Nothing here needs attention.').waitFor();
    await page.goto(`${session.server.url}/integrations/events`);
    await page.getByRole('tab', { name: 'Topic catalogue' }).click();
    await page.getByText('claims.claim.created').first().waitFor();
    expect(session.errors).toEqual([]);
  });

  it('is closed to an adjuster', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/');
    await page.getByRole('button', { name: /user menu$/ }).click();
    await page.getByRole('menuitem', { name: 'My Account' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Integrations' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto(`${session.server.url}/integrations/dashboard`);
    await page.waitForURL(/\/forbidden/);
    expect(session.errors).toEqual([]);
  });
});
