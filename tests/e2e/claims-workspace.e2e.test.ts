import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * The claim workspace end to end on a demo claim, real server and Chromium: a recovery on the
 * Accounting tab moves the server's totals (recovered up, net incurred down), the claim's tags are
 * edited in the header, and a contact created on the Parties tab (ZIP filling city and state) is
 * added to the claim as a party.
 */
const JSONAPI = 'application/vnd.api+json';

/** "12,345.60" → 1234560 (integer cents; the test compares money without floats). */
const cents = (shown: string | null) => {
  const match = /^(-?)([\d,]+)\.(\d{2})$/.exec(shown ?? '');
  if (!match) throw new Error(`Not an amount: ${shown}`);
  return (match[1] ? -1 : 1) * Number(`${match[2]!.replace(/,/g, '')}${match[3]}`);
};

describe('Claim workspace', () => {
  const e2e = useE2eSession('claims-workspace');
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
    return (await response.json()) as { data: any };
  }

  it('records a recovery and sees the totals, edits the claim tags, creates a contact by ZIP and adds it as a party', async () => {
    const claims = await api('/claims/?filter[status]=open&page[size]=1&page[number]=1&sort=-id');
    const claim = claims.data[0];
    const claimNumber: string = claim.attributes.number;
    const page = await signIn('adjuster@atrium.test', `/claims/${claimNumber}/accounting`);
    await page.getByRole('heading', { name: `Claim ${claimNumber}` }).waitFor();

    // Accounting: a subrogation recovery of 123.45
    const total = (key: string) => page.getByTestId(`total-${key}`);
    await total('recovered').waitFor();
    const recoveredBefore = cents(await total('recovered').textContent());
    const netBefore = cents(await total('net_incurred').textContent());
    await page.getByRole('button', { name: 'Add recovery' }).click();
    const form = page.getByRole('dialog', { name: 'Add recovery' });
    await form.getByRole('combobox', { name: 'Recovery type' }).click();
    await page.getByRole('option', { name: 'Subrogation' }).click();
    await form.getByRole('textbox', { name: 'Amount received' }).fill('123.45');
    await form.getByRole('textbox', { name: 'Pay code' }).fill('E2E-SUB');
    await form.getByRole('button', { name: 'Save recovery' }).click();
    await page.getByText('The recovery was posted.').waitFor();
    await expect
      .poll(async () => cents(await total('recovered').textContent()), { timeout: 15_000 })
      .toBe(recoveredBefore + 12345);
    expect(cents(await total('net_incurred').textContent())).toBe(netBefore - 12345);
    await page.getByRole('table', { name: 'Recoveries' }).getByText('E2E-SUB').waitFor();

    // Tags: add one the claim does not have yet, from the header
    const tags = (await api('/tags/?filter[expired]=false')).data as { id: string; attributes: any }[];
    const current = ((await api(`/claims/${claim.id}/relationships/tags/`)).data as { id: string }[]).map((t) => t.id);
    const fresh = tags.find((t) => !current.includes(t.id) && t.attributes.attributes?.level !== 'exposure')!;
    await page.getByRole('tab', { name: 'Details' }).click();
    const tagGroup = page.getByRole('group', { name: 'Claim tags' });
    await tagGroup.getByRole('button', { name: 'Edit tags' }).click();
    await page.getByRole('combobox', { name: 'Claim tags' }).click();
    await page.getByRole('option', { name: fresh.attributes.label }).click();
    await page.getByRole('button', { name: 'Save tags' }).click();
    await tagGroup.getByText(fresh.attributes.label, { exact: true }).waitFor();
    await expect
      .poll(async () =>
        ((await api(`/claims/${claim.id}/relationships/tags/`)).data as { id: string }[]).map((t) => t.id),
      )
      .toContain(fresh.id);

    // Parties: a new contact, its city and state from the ZIP, then a party of the claim
    const lastName = `E2e${Date.now()}`;
    await page.getByRole('tab', { name: 'Parties' }).click();
    await page.getByRole('button', { name: 'New contact' }).click();
    const contact = page.getByRole('dialog', { name: 'New contact' });
    await contact.getByRole('textbox', { name: 'First name' }).fill('Robin');
    await contact.getByRole('textbox', { name: 'Last name' }).fill(lastName);
    await contact.getByRole('textbox', { name: 'ZIP' }).fill('60601');
    await expect
      .poll(() => contact.getByRole('textbox', { name: 'City' }).inputValue(), { timeout: 15_000 })
      .toBe('Chicago');
    expect(await contact.getByRole('textbox', { name: 'State' }).inputValue()).toBe('IL');
    await contact.getByRole('button', { name: 'Save contact' }).click();
    const details = page.getByRole('dialog', { name: `Contact Robin ${lastName}` });
    await details.getByText('Chicago IL 60601').waitFor();
    await details.getByRole('button', { name: 'Add to claim' }).click();
    await details.getByText(/^Party \d+ on this claim \(claimant\)\.$/).waitFor();
    const found = await api(`/integrations/contacts/?filter[name]=${lastName}`);
    expect(found.data.map((c: any) => c.attributes.addresses[0])).toEqual([
      { zip: '60601', city: 'Chicago', state: 'IL' },
    ]);
    const parties = await api(`/parties/?filter[claim]=${claim.id}`);
    expect(parties.data.some((p: any) => p.attributes.contact_id === Number(found.data[0].id))).toBe(true);

    expect(errors).toEqual([]);
  }, 180_000);
});
