import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { apiAs } from '../../../../tests/e2e/api-as.js';

/** Types at the end of the template source (Monaco), closing any suggestion it opened. */
async function typeAtEnd(page: Page, text: string) {
  await page.getByTestId('template-source').locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

/** Documents: an author edits a template, sees the server preview follow, and publishes a version. */
describe('documents', () => {
  const session = useE2eSession('documents');
  // Names of this attempt: a retry against the same server makes its own folder and version.
  const attempt = () => Date.now().toString(36).slice(-5).toUpperCase();

  /** The author's API answering parsed JSON, to put a retry's draft back on version 1's source. */
  async function authorApi() {
    const api = await apiAs(session.server, 'author@atrium.test');
    return async (method: string, path: string, body?: unknown) => (await api(method, path, body)).json();
  }

  it('lets an author draft a new version, watch the preview update as they type, and publish it', async () => {
    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    // The empty Commercial folder is disabled; templates are links.
    await expect
      .poll(() => page.getByRole('button', { name: 'Commercial, empty folder' }).isDisabled(), { timeout: 10_000 })
      .toBe(true);
    await page.getByRole('link', { name: 'Homeowners declarations page' }).click();

    await page.getByRole('heading', { name: 'Homeowners declarations page', level: 1 }).waitFor();
    const source = page.getByTestId('template-source');
    await expect.poll(() => source.getAttribute('data-readonly'), { timeout: 10_000 }).toBe('true');
    const image = page.getByTestId('preview-image');
    await image.waitFor();

    const versionName = `July 2027 ${attempt()}`;
    await page.getByLabel('Version name').fill(versionName);
    await page.getByLabel('Effective date').fill('2027-07-01');
    await page.getByRole('button', { name: 'Create draft version' }).click();
    const heading = page.getByRole('heading', { name: /^Source · version \d+ \(draft\)$/ });
    await heading.waitFor();
    const number = Number(/version (\d+)/.exec((await heading.textContent()) ?? '')?.[1]);
    // A retry's draft copies the page break the first attempt published: start from version 1's source.
    const api = await authorApi();
    const templateId = /templates\/(\d+)/.exec(page.url())?.[1];
    const versions = (await api('GET', `/api/documents/templates/${templateId}/versions/`)).results;
    const draft = versions.find((v: { number: number }) => v.number === number);
    const first = versions.find((v: { number: number }) => v.number === 1);
    if (draft.source !== first.source) {
      await api('PATCH', `/api/documents/versions/${draft.id}/`, { source: first.source });
      await page.reload();
      await heading.waitFor();
    }
    await expect.poll(() => source.getAttribute('data-readonly'), { timeout: 10_000 }).toBe('false');

    const before = await image.getAttribute('src');
    await typeAtEnd(page, '\n#pagebreak()\nSecond page of the July 2027 edition.\n');
    await page.getByTestId('preview-status').getByText('2 pages').waitFor();
    expect(await image.getAttribute('src')).not.toBe(before);

    // A mistake shows the compiler's message with its line; fixing it brings the preview back.
    await typeAtEnd(page, '#data.policy.nope');
    await page
      .getByTestId('preview-error')
      .getByText(/Line \d+, column \d+: dictionary does not contain key "nope"/)
      .waitFor();
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Backspace');
    await page.getByTestId('preview-status').getByText('2 pages').waitFor();

    await page.getByRole('button', { name: `Publish version ${number}` }).click();
    await page.getByText(`Version ${number} (${versionName}) published.`).waitFor();
    const row = page.getByRole('table', { name: 'Versions' }).getByRole('row', { name: new RegExp(versionName) });
    await row.getByText('Published').waitFor();
    await row.getByText('Jul 1, 2027').waitFor();
    await page.getByRole('heading', { name: `Source · version ${number} (published)` }).waitFor();
    await expect.poll(() => source.getAttribute('data-readonly'), { timeout: 10_000 }).toBe('true');
    expect(session.errors).toEqual([]);
  });

  it('lets an author create a folder and a template in it, which opens in the editor', async () => {
    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('button', { name: 'New folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'New folder' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('A folder name is required.').waitFor();
    const folderName = `Notices ${attempt()}`;
    await dialog.getByLabel('Name').fill(folderName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`Selected folder: ${folderName}`).waitFor();
    await page.getByRole('button', { name: `${folderName}, empty folder` }).waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    const form = page.getByRole('dialog', { name: 'New template' });
    await expect
      .poll(() => form.getByLabel('Folder', { exact: true }).inputValue(), { timeout: 10_000 })
      .toBe(folderName);
    await form.getByLabel('Name').fill('Cancellation notice');
    await form.getByRole('button', { name: 'Create' }).click();

    await page.getByRole('heading', { name: 'Cancellation notice', level: 1 }).waitFor();
    await page.getByLabel('Version name').fill('First draft');
    await page.getByLabel('Effective date').fill('2026-12-01');
    await page.getByRole('button', { name: 'Create draft version' }).click();
    await page.getByRole('heading', { name: 'Source · version 1 (draft)' }).waitFor();
    await expect
      .poll(() => page.getByTestId('template-source').getAttribute('data-readonly'), { timeout: 10_000 })
      .toBe('false');
    await page.getByTestId('preview-image').waitFor();
    // The editor completes data points from the catalogue after `data.`.
    const first = await page.getByTestId('preview-image').getAttribute('src');
    await typeAtEnd(page, '\nInsured: #data.policy.');
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('premium').first().waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.insertText('insured.name');
    await page.waitForFunction(
      (src) => document.querySelector('[data-testid="preview-image"]')?.getAttribute('src') !== src,
      first,
    );
    expect(await page.getByTestId('preview-error').count()).toBe(0);
    // The helper functions complete by name; accepting one and calling it renders.
    const withName = await page.getByTestId('preview-image').getAttribute('src');
    await typeAtEnd(page, '\nPremium: #formatC');
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('formatCurrency').first().waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('(data.policy.premium)');
    await page.waitForFunction(
      (src) => document.querySelector('[data-testid="preview-image"]')?.getAttribute('src') !== src,
      withName,
    );
    await page.getByTestId('preview-status').waitFor();
    expect(await page.getByTestId('preview-error').count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('shows a claims adjuster the templates read-only, without authoring or publishing', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Claim acknowledgement letter' }).click();
    await page.getByRole('heading', { name: 'Claim acknowledgement letter', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Versions' }).getByText('January 2026').waitFor();
    // Readers see the stored version rendered (they may not preview source of their own).
    await page.getByTestId('preview-image').waitFor();
    await expect
      .poll(() => page.getByTestId('template-source').getAttribute('data-readonly'), { timeout: 10_000 })
      .toBe('true');
    expect(await page.getByRole('button', { name: 'Create draft version' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Publish version/ }).count()).toBe(0);
    await page.getByRole('link', { name: '← All templates' }).click();
    // The tree's link (the letter is also among the open templates' tabs now).
    await page
      .getByRole('tree', { name: 'Document templates' })
      .getByRole('link', { name: 'Claim acknowledgement letter' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Rename / }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
});
