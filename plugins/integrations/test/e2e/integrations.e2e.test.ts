import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '@atrium/sdk/testing';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

// The receiver listens on 127.0.0.1, which subscriptions may target only when the carrier allows it.
process.env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE = 'true';

/**
 * An administrator creates a subscription, sends a test event and reads the attempt; edits a data
 * mapping in Monaco with a live preview and publishes versions.
 */
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

  it('edits a data mapping in Monaco with a live preview, diffs it and publishes versions', async () => {
    const page = await session.signIn('admin@atrium.test', '/integrations/dashboard');
    await page.getByRole('navigation', { name: 'Module' }).getByRole('link', { name: 'Data mappings' }).click();
    await page.getByRole('heading', { name: 'Data mappings' }).waitFor();
    // Monaco is not loaded before an editor opens.
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    await page.getByRole('link', { name: 'New mapping' }).click();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill('claims.claim');
    await page.getByRole('textbox', { name: 'To', exact: true }).fill('acme.claim-notice');
    const preview = page.getByTestId('mapping-preview');
    // The starting expression is previewed on the starting sample.
    await preview.getByText('"reference": "CLM-000012"').waitFor();
    await page.getByRole('button', { name: 'Create mapping' }).click();
    await page.getByText('Mapping created').waitFor();
    await page.getByRole('heading', { name: 'claims.claim → acme.claim-notice' }).waitFor();

    // Type a new expression: the preview follows as you type; money stays a decimal string.
    const expression = page.getByTestId('mapping-expression').locator('.monaco-editor');
    await expression.locator('.view-line').first().click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(
      '{"claim": data.claim_number, "reserve_total": $decimalAdd(data.reserve_amount, "0.10"), "',
    );
    await page.getByText('The expression fails').waitFor();
    await page.keyboard.insertText('reserve_float": 0.1 + 0.2}');
    await preview.getByText('"reserve_total": "1250.2"').waitFor();
    await page
      .getByText('reserve_float became a number (0.30000000000000004); keep money as a decimal string.')
      .waitFor();
    // The sample tree inserts a field's path at the cursor.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('{"status": ');
    await page.getByRole('button', { name: 'Insert data.status' }).click();
    await page.keyboard.insertText('}');
    await preview.getByText('"status": "draft"').waitFor();
    await page.getByRole('button', { name: 'Publish version 1' }).click();
    await page.getByText('Version 1 published.').waitFor();
    await page.getByText('Published', { exact: true }).first().waitFor();

    // A published version never changes: the edit becomes version 2, a draft, diffed against version 1.
    await expression.locator('.view-line').first().click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('/* v2 */');
    await page.getByRole('button', { name: 'Save as new version' }).click();
    await page.getByText('Data Mapping updated').waitFor();
    await page.getByRole('button', { name: 'Publish version 2' }).waitFor();
    await page.getByRole('button', { name: 'Compare with version 1' }).click();
    const diff = page.getByRole('dialog', { name: 'Changes against version 1' });
    await diff.getByText('Left: version 1 as published. Right: the text in the editor.').waitFor();
    await diff.locator('.monaco-diff-editor .line-insert').first().waitFor();
    await page.keyboard.press('Escape');
    await diff.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Publish version 2' }).click();
    await page.getByText('Version 2 published.').waitFor();

    expect(session.errors).toEqual([]);
  });

  it('creates an integration that maps and posts, runs it and reads its steps', async () => {
    const page = await session.signIn('admin@atrium.test', '/integrations/dashboard');
    await page.getByRole('navigation', { name: 'Module' }).getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New integration' }).click();
    await page.getByLabel('Name').fill('Claim notices to ACME');
    await page.getByLabel('Definition').fill(
      JSON.stringify({
        steps: [
          { name: 'Map the claim', type: 'map', from: 'claims.claim', to: 'acme.claim-notice' },
          { name: 'Post to ACME', type: 'http', url },
        ],
      }),
    );
    await page.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('heading', { name: 'Claim notices to ACME' }).waitFor();
    await page.getByLabel('Input (JSON)').fill('{"data": {"status": "open"}}');
    const before = bodies.length;
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('The run succeeded.').waitFor();
    await page.getByLabel('Step 1 output').getByText('"status": "open"').waitFor();
    expect(bodies.slice(before)).toEqual(['{"status":"open"}']);

    // Edited to listen to claims' events: a claim created elsewhere starts a run, shown as it lands.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Events').fill('claims');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Integration updated.').waitFor();
    await page.getByText('Events that start a run: Claims').waitFor();
    const adjuster = await as(session.server, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' });
    const claim = await adjuster.post('/claims/', {
      data: { type: 'claim', attributes: { loss_description: 'Fallen tree' } },
    });
    expect(claim.status).toBe(201);
    await page.getByRole('cell', { name: 'Event claims.claim.created' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Show steps' }).first().click();
    await page.getByLabel('Step 2 output').getByText('"status": "draft"').waitFor();
    // A mistyped address is "not found" with the way back, not a failed load (no 4xx asked for).
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${session.server.url}/integrations/integrations`);
    await page.getByText('Integration not found.').waitFor();
    await page.getByRole('link', { name: 'Back to integrations' }).click();
    await page.getByRole('link', { name: 'Claim notices to ACME' }).waitFor();
    expect(refused).toEqual([]);
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
