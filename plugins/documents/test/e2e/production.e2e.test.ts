import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { apiAs } from '../../../../tests/e2e/api-as.js';
import { SAMPLE_CLAIM } from '../../shared/data-points.js';

/**
 * Production documents' print and e-mail states in Chromium: an underwriter puts a claim letter on
 * the print queue, marks it printed, e-mails it, and sees a bad address refused in words. Each attempt
 * renders its own letter (a claim number of its own), so a retry against the same server starts clean.
 */
describe('documents: print queue and e-mail', () => {
  const session = useE2eSession('documents-production');

  /** A demo user's API answering parsed JSON. */
  async function jsonApiAs(username: string) {
    const api = await apiAs(session.server, username);
    return async (method: string, path: string, body?: unknown) => (await api(method, path, body)).json();
  }

  it('queues, prints and e-mails a claim letter, with the states on screen', async () => {
    const unique = `CLM-E2E-${Date.now().toString(36).toUpperCase()}`;
    const api = await jsonApiAs('underwriter@atrium.test');
    const templates = await api('GET', '/api/documents/templates/');
    const letter = templates.data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Claim acknowledgement letter',
    );
    await api('POST', '/api/documents/production-documents/', {
      template_id: Number(letter.id),
      document_date: '2026-03-01',
      data: { ...SAMPLE_CLAIM, claim: { ...SAMPLE_CLAIM.claim, number: unique } },
      record: { type: 'claim', id: unique },
    });

    const page = await session.signIn('underwriter@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Production documents' }).click();
    await page.getByRole('heading', { name: 'Production documents', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Production documents' });
    const row = table.getByRole('row').filter({ hasText: `Claim ${unique}` });
    await row.getByText('Not printed').waitFor();
    await expect.poll(() => row.getByText('Not e-mailed').count()).toBe(1);
    const name = `Claim acknowledgement letter (2026-03-01) for Claim ${unique}`;

    await page.getByRole('button', { name: `Add to print queue: ${name}` }).click();
    await row.getByText('On the print queue').waitFor();
    // The print queue shows it; once printed it leaves the queue and is among the printed.
    await page.locator('label', { hasText: /^Print queue$/ }).click();
    await row.getByText('On the print queue').waitFor();
    await page.getByRole('button', { name: `Mark printed: ${name}` }).click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('label', { hasText: /^Printed$/ }).click();
    await row.getByText('by underwriter@atrium.test').waitFor();
    await expect.poll(() => page.getByRole('button', { name: `Print again: ${name}` }).count()).toBe(1);

    // A bad address is refused in words; a good one is queued (sent once a mail server is configured).
    await page.getByRole('button', { name: `E-mail: ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('To').fill('not an address');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Enter a valid e-mail address, like name@example.com.').waitFor();
    const to = `${unique.toLowerCase()}@example.test`;
    await dialog.getByLabel('To').fill(to);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText(`E-mail to ${to} queued.`).waitFor();
    await expect
      .poll(async () => (await row.textContent()) ?? '')
      .toMatch(new RegExp(`(Sent|Waiting to send|Sending) to ${to}`));

    const mails = await api('GET', `/api/documents/production-documents/?record_type=claim&record_id=${unique}`);
    expect(mails.results[0]).toMatchObject({ print_state: 'printed', emailed_to: [to] });
    expect(session.errors).toEqual([]);
  });

  it('previews a draft with a real policy picked by number, and lists what the sample and the policy leave blank', async () => {
    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Personal auto declarations page' }).click();
    await page.getByRole('heading', { name: 'Personal auto declarations page', level: 1 }).waitFor();
    await page.getByLabel('Version name').fill(`Picker ${Date.now().toString(36)}`);
    await page.getByLabel('Effective date').fill('2030-01-01');
    await page.getByRole('button', { name: 'Create draft version' }).click();
    await page.getByRole('heading', { name: /^Source · version \d+ \(draft\)$/ }).waitFor();
    await page.getByText('Rendered on the server with the sample policy as you type.').waitFor();
    await page.getByTestId('preview-unresolved').getByText('Every data point has a value.').waitFor();

    const picker = page.getByRole('combobox', { name: 'Preview with' });
    await picker.click();
    await picker.fill('PA-');
    const option = page.getByRole('option', { name: /^PA-/ }).first();
    await option.waitFor();
    const label = (await option.textContent()) ?? '';
    await option.click();
    await page.getByText(`Rendered on the server with policy ${label} as you type.`).waitFor();
    const number = /PA-\d+/.exec(label)?.[0] ?? label;
    await expect
      .poll(async () => decodeURIComponent((await page.getByTestId('preview-image').getAttribute('src')) ?? ''))
      .toContain(number);
    // The seeded insured is a contact with an address, so the dec page's address resolves.
    await expect
      .poll(async () => (await page.getByTestId('preview-unresolved').textContent()) ?? '')
      .not.toContain('policy.insured.address');

    // Component names complete inside an import's path.
    await page.getByTestId('template-source').locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n#import "/components/sig');
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('signature-block.typ').first().waitFor();
    await page.keyboard.press('Escape');
    expect(session.errors).toEqual([]);
  });

  it('keeps templates open in tabs, with what was typed in each, and closes them', async () => {
    const page = await session.signIn('author@atrium.test', '/documents');
    const tree = page.getByRole('tree', { name: 'Document templates' });
    const tabs = page.getByRole('navigation', { name: 'Open templates' });
    await tree.getByRole('link', { name: 'Personal auto declarations page' }).click();
    await page.getByRole('heading', { name: 'Personal auto declarations page', level: 1 }).waitFor();
    await page.getByLabel('Version name').fill(`Tabs ${Date.now().toString(36)}`);
    await page.getByLabel('Effective date').fill('2030-02-01');
    await page.getByRole('button', { name: 'Create draft version' }).click();
    await page.getByRole('heading', { name: /^Source · version \d+ \(draft\)$/ }).waitFor();
    await page.getByTestId('template-source').locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\nTyped in the auto tab.\n');
    await page.keyboard.press('Escape');
    await tabs.getByLabel('unsaved changes').waitFor();

    // Another template opens beside it; going back, the typed text is still there (Save draft is live).
    await page.getByRole('link', { name: '← All templates' }).click();
    await tree.getByRole('link', { name: 'Claim acknowledgement letter' }).click();
    await page.getByRole('heading', { name: 'Claim acknowledgement letter', level: 1 }).waitFor();
    await expect.poll(() => tabs.getByRole('link').count()).toBe(2);
    await tabs.getByRole('link', { name: /Personal auto declarations page/ }).click();
    await page.getByRole('heading', { name: 'Personal auto declarations page', level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);

    // Closing a tab with unsaved changes asks first, then shows its neighbour; the last one closes to /documents.
    await page.getByRole('button', { name: 'Close Personal auto declarations page' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard and close' }).click();
    await page.getByRole('heading', { name: 'Claim acknowledgement letter', level: 1 }).waitFor();
    await expect.poll(() => tabs.getByRole('link').count()).toBe(1);
    await page.getByRole('button', { name: 'Close Claim acknowledgement letter' }).click();
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    await expect.poll(() => tabs.count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('previews the claim letter with a real claim picked from those the administrator may read', async () => {
    const page = await session.signIn('admin@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Claim acknowledgement letter' }).click();
    await page.getByRole('heading', { name: 'Claim acknowledgement letter', level: 1 }).waitFor();
    await page.getByText('Rendered on the server with the sample claim as you type.').waitFor();
    const picker = page.getByRole('combobox', { name: 'Preview with' });
    await picker.click();
    await picker.fill('CLM-');
    const option = page.getByRole('option', { name: /^CLM-/ }).first();
    await option.waitFor();
    const label = (await option.textContent()) ?? '';
    await option.click();
    await page.getByText(`Rendered on the server with claim ${label} as you type.`).waitFor();
    const number = label.split(' · ')[0]!;
    await expect
      .poll(async () => decodeURIComponent((await page.getByTestId('preview-image').getAttribute('src')) ?? ''))
      .toContain(number);
    expect(session.errors).toEqual([]);
  });
});
