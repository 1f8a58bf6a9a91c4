import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * Claim Outbound Email end to end, real server (no SMTP_URL, as on a fresh install) and Chromium:
 * the adjuster opens a claim, opens the activity sidebar's "Claim Outbound Email", composes a mail,
 * and sees it kept in the outbox with the note that no mail server is configured.
 */
const JSONAPI = 'application/vnd.api+json';

describe('Claim Outbound Email', () => {
  const e2e = useE2eSession('claims-outbound-email');
  const { errors, signIn } = e2e;

  async function api(path: string) {
    const signed = await e2e.server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'adjuster@atrium.test', password: DEMO_PASSWORD }),
    });
    const token = ((await signed.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
    const response = await e2e.server.fetch(`/api/claims${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: JSONAPI },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { data: any; meta?: any };
  }

  it('composes a mail from the activity sidebar and shows it kept, not sent, without a mail server', async () => {
    const claims = await api('/claims/?filter[status]=open&page[size]=1&page[number]=1&sort=-id');
    const claim = claims.data[0];
    const claimNumber: string = claim.attributes.number;
    const page = await signIn('adjuster@atrium.test', `/claims/${claimNumber}/details`);
    await page.getByRole('heading', { name: `Claim ${claimNumber}` }).waitFor();

    await page.getByRole('button', { name: 'Claim Outbound Email' }).click();
    const panel = page.getByRole('region', { name: 'Claim Outbound Email' });
    await panel.getByText('No mail server configured').waitFor();
    await panel.getByText(`No e-mails sent from claim ${claimNumber} yet.`).waitFor();

    await panel.getByRole('button', { name: 'Compose e-mail' }).click();
    const form = panel.getByRole('form', { name: 'Compose e-mail' });
    const to = form.getByLabel('To');
    await to.fill('insured.e2e@example.test');
    await to.press('Enter');
    await form.getByLabel('Subject').fill(`Claim ${claimNumber}: next steps`);
    await form.getByLabel('Message').fill('We will call you tomorrow.');
    await form.getByRole('button', { name: 'Send' }).click();

    const item = panel.getByLabel(`E-mail Claim ${claimNumber}: next steps`);
    await item.getByText('Queued').waitFor();
    await item.getByText('Not sent: no mail server configured.').waitFor();
    await item.getByText('To: insured.e2e@example.test').waitFor();

    const stored = await api(`/claims/${claim.id}/emails/`);
    expect(stored.meta.mail_configured).toBe(false);
    expect(stored.data).toHaveLength(1);
    expect(stored.data[0].attributes).toMatchObject({
      to: ['insured.e2e@example.test'],
      status: 'queued',
      last_error: 'not sent: no mail server configured',
    });
    const audit = await api(`/audit-log/?filter[claim_id]=${claim.id}&filter[entity_type]=email`);
    expect(audit.data).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
