import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { apiAs } from '../../../../tests/e2e/api-as.js';
import { SAMPLE_POLICY } from '../../shared/data-points.js';
import { compareWithGolden, differingShare, pdfToPngs, pdfToText } from '../pdf-pages.js';

const EDITION_LINE = 'This edition adds the water backup endorsement notice.';

/** Types at the end of the template source (Monaco), closing any suggestion it opened. */
async function typeAtEnd(page: Page, text: string) {
  await page.getByTestId('template-source').locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

/** The first day of next month (UTC), as YYYY-MM-DD. */
function nextMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/**
 * Issue 18's "Done when": an author edits the declarations template, sees the preview follow,
 * publishes a version effective next month; a policy dated today prints with the old version and one
 * dated next month with the new. Each page is compared with its golden image (≤ 0.5% of pixels
 * differ) and the text holds the policy number and premium.
 */
describe('documents: declarations by effective date', () => {
  const session = useE2eSession('documents-declarations');

  // A demo user's API beside the browser (the underwriter unless named).
  const apiAsUser = (username = 'underwriter@atrium.test') => apiAs(session.server, username);

  it('prints a policy dated today with the old version and one dated next month with the new', async () => {
    const effective = nextMonth();
    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Homeowners declarations page' }).click();
    await page.getByRole('heading', { name: 'Homeowners declarations page', level: 1 }).waitFor();
    await page.getByLabel('Version name').fill('Next month');
    await page.getByLabel('Effective date').fill(effective);
    await page.getByRole('button', { name: 'Create draft version' }).click();
    const heading = page.getByRole('heading', { name: /^Source · version \d+ \(draft\)$/ });
    await heading.waitFor();
    // Version 2 on a fresh server; a retry against the same one makes the next number.
    const number = Number(/version (\d+)/.exec((await heading.textContent()) ?? '')?.[1]);
    // A draft copies the latest version, which on a retry already has the edition line: start it
    // from version 1's source, so every attempt prints the same edition (the golden image).
    const author = await apiAsUser('author@atrium.test');
    const templateList = await (await author('GET', '/api/documents/templates/')).json();
    const decId = templateList.data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Homeowners declarations page',
    ).id;
    const versions = (await (await author('GET', `/api/documents/templates/${decId}/versions/`)).json()).results;
    const first = versions.find((v: { number: number }) => v.number === 1);
    const draft = versions.find((v: { number: number }) => v.number === number);
    if (draft.source !== first.source) {
      await author('PATCH', `/api/documents/versions/${draft.id}/`, { source: first.source });
      await page.reload();
      await heading.waitFor();
    }
    const image = page.getByTestId('preview-image');
    await image.waitFor();
    const before = await image.getAttribute('src');
    await typeAtEnd(page, `\n#v(8pt)\n#align(center)[*${EDITION_LINE}*]\n`);
    await page.waitForFunction(
      (src) => document.querySelector('[data-testid="preview-image"]')?.getAttribute('src') !== src,
      before,
    );
    expect(decodeURIComponent((await image.getAttribute('src')) ?? '')).toContain('water backup');
    await page.getByRole('button', { name: `Publish version ${number}` }).click();
    await page.getByText(`Version ${number} (Next month) published.`).waitFor();
    expect(session.errors).toEqual([]);

    const api = await apiAsUser();
    const templates = await (await api('GET', '/api/documents/templates/')).json();
    const dec = templates.data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Homeowners declarations page',
    );
    const today = new Date().toISOString().slice(0, 10);
    const print = async (date: string) => {
      const doc = await (
        await api('POST', '/api/documents/production-documents/', {
          template_id: Number(dec.id),
          document_date: date,
          data: SAMPLE_POLICY,
        })
      ).json();
      const pdf = Buffer.from(
        await (await api('GET', `/api/documents/production-documents/${doc.id}/pdf/`)).arrayBuffer(),
      );
      return { doc, pdf };
    };

    const old = await print(today);
    expect(old.doc).toMatchObject({ version_number: 1, version_name: 'January 2026', document_date: today });
    const oldText = pdfToText(old.pdf);
    expect(oldText).toContain('HO-2026-000123');
    expect(oldText).toContain('$1,284.50');
    expect(oldText).not.toContain(EDITION_LINE);
    const oldPages = pdfToPngs(old.pdf);
    expect(oldPages).toHaveLength(1);
    for (const share of compareWithGolden('declarations-v1', oldPages)) expect(share).toBeLessThanOrEqual(0.005);

    const next = await print(effective);
    expect(next.doc).toMatchObject({ version_number: number, version_name: 'Next month', document_date: effective });
    const nextText = pdfToText(next.pdf);
    expect(nextText).toContain('HO-2026-000123');
    expect(nextText).toContain('$1,284.50');
    expect(nextText).toContain(EDITION_LINE);
    const nextPages = pdfToPngs(next.pdf);
    for (const share of compareWithGolden('declarations-v2', nextPages)) expect(share).toBeLessThanOrEqual(0.005);
    // The two editions really differ on paper.
    expect(differingShare(oldPages[0]!, nextPages[0]!)).toBeGreaterThan(0.001);

    // A real policy's declarations (the policies module asks documents) pick by the revision's date.
    const policies = await (await api('GET', '/api/policies/policies/?page_size=100')).json();
    const home = policies.results.find((p: { policy_type_name?: string }) => JSON.stringify(p).includes('Homeowners'));
    const file = await (await api('GET', `/api/policies/get-dec-file-id/?policy_id=${home.id}`)).json();
    const produced = await (await api('GET', `/api/documents/production-documents/${file.file_id}/`)).json();
    // One per revision: a retry reads the document the first attempt made (then version 2 or later).
    if (produced.document_date >= effective) expect(produced.version_number).toBeGreaterThanOrEqual(2);
    else expect(produced.version_number).toBe(1);
    const realText = pdfToText(Buffer.from(await (await api('GET', file.url)).arrayBuffer()));
    expect(realText).toContain(home.policy_number);
  });

  it('opens a revision’s declarations from the policy screen', async () => {
    const api = await apiAsUser();
    const policies = await (await api('GET', '/api/policies/policies/?page_size=100')).json();
    const home = policies.results.find((p: { policy_type_name?: string }) => JSON.stringify(p).includes('Homeowners'));
    const page = await session.signIn('underwriter@atrium.test', `/policies/policy/${home.id}`);
    await page.getByRole('tab', { name: 'Revisions' }).click();
    await page.getByRole('columnheader', { name: 'Declarations' }).waitFor();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page
        .getByRole('button', { name: `Declarations of ${home.policy_number}` })
        .first()
        .click(),
    ]);
    // The PDF, read with the underwriter's token, opens as a blob in a new tab.
    expect(popup.url()).toMatch(/^blob:/);
    await popup.close();
    // Print or e-mail: the production documents page, on this policy's documents.
    await page
      .getByRole('button', { name: `Print or e-mail the declarations of ${home.policy_number}` })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Production documents', level: 1 }).waitFor();
    await page.getByText(`Showing the documents of Policy ${home.policy_number}.`).waitFor();
    const rows = page.getByRole('table', { name: 'Production documents' }).getByRole('row');
    await expect.poll(() => rows.filter({ hasText: `Policy ${home.policy_number}` }).count()).toBeGreaterThan(0);
    // Only this policy's documents (and the header row).
    await expect
      .poll(async () => (await rows.count()) - 1)
      .toBe(await rows.filter({ hasText: `Policy ${home.policy_number}` }).count());
    expect(session.errors).toEqual([]);
  });
});
