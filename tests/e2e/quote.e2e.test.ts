import { describe, expect, it } from 'vitest';
import { apiAs } from './api-as.js';
import { useE2eSession } from './browser.js';

/**
 * Quoting end to end on the demo Homeowners line and its demo rules: an agent creates a quote,
 * walks its pages (a UI-control rule shows and requires the vault question for a valuable article),
 * rates and reads the worksheet, submits (an old roof is referred); the underwriter finds the
 * referral in the review queue and clears it with a reason; the agent sees the billing preview,
 * binds and sees the policy number.
 */
describe('Quote', () => {
  const e2e = useE2eSession('quote');
  const { errors, signIn } = e2e;

  it('agent quotes, rates and submits; underwriter clears the referral from the review queue; agent binds', async () => {
    const agent = await signIn('agent@agency.test', '/quote/create');
    await agent.getByRole('heading', { level: 1, name: 'New Quote' }).waitFor();
    await agent.getByLabel('Effective date').fill('2026-03-01');
    await agent.getByRole('radio', { name: /Homeowners/ }).check();
    await agent.getByLabel('Named insured').fill('Robin Quoteworth');
    // The state is asked: quoting permissions are per state (the demo agent quotes and binds in TX).
    await agent.getByRole('button', { name: 'Create quote' }).click();
    await agent.getByText('Choose the state.').waitFor();
    await agent.getByPlaceholder('Where the risk is').fill('TX');
    await agent.getByRole('option', { name: 'TX', exact: true }).click();
    await agent.getByRole('button', { name: 'Create quote' }).click();
    await agent.waitForURL(/\/quote\/Q-\d+\/risks\/home$/);
    const number = /\/quote\/(Q-\d+)\//.exec(agent.url())![1]!;
    await agent.getByRole('heading', { level: 1, name: `Quote ${number}` }).waitFor();

    // A required field left empty is named on the field when the page is submitted.
    await agent.getByRole('button', { name: 'Continue' }).click();
    // (the field's message comes first; the page's alert repeats it)
    await agent.getByText('ZIP code is required.').first().waitFor();

    await agent.getByLabel('ZIP code').fill('78701');
    await agent.getByLabel('ZIP code').blur();
    await agent.getByLabel('Protection class').fill('4');
    await agent.getByLabel('Protection class').blur();
    await agent.getByLabel('Year built').fill('1990');
    await agent.getByLabel('Year built').blur();
    await agent.getByLabel('Roof year').fill('1994');
    await agent.getByLabel('Roof year').blur();
    await agent.getByRole('button', { name: 'Continue' }).click();
    await agent.waitForURL(/\/risks\/scheduled-article$/);

    // A scheduled article: the vault question is hidden until the value passes 25,000, then required.
    await agent.getByRole('button', { name: 'Add scheduled article' }).click();
    await agent.getByText('Scheduled article 1', { exact: true }).waitFor();
    await agent.getByLabel('Appraised value').fill('8000');
    await agent.getByLabel('Appraised value').blur();
    await agent.getByRole('textbox', { name: 'Category' }).or(agent.getByLabel('Category')).first().click();
    await agent.getByRole('option', { name: 'Jewelry' }).click();
    await expect.poll(() => agent.getByText('Kept in a vault').count()).toBe(0);
    await agent.getByLabel('Appraised value').fill('30000');
    await agent.getByLabel('Appraised value').blur();
    await agent.getByText('Kept in a vault *').waitFor();
    // The product answers it No by default (lines' demo Homeowners), so the required question is
    // answered; the agent says Yes (it halves the article's rate).
    await agent.getByRole('switch', { name: /Kept in a vault/ }).check({ force: true });
    await agent.waitForLoadState('networkidle');

    // quote:edit-risk: the article on a page of its own; a changed value is kept and shown back.
    await agent.getByRole('link', { name: 'Open scheduled article 1' }).click();
    await agent.waitForURL(/\/risk\/\d+\/edit$/);
    await agent.getByRole('heading', { level: 1, name: 'Scheduled article 1' }).waitFor();
    await expect.poll(() => agent.getByLabel('Appraised value').inputValue()).toBe('30000');
    await agent.getByLabel('Appraised value').fill('32000');
    await agent.getByRole('button', { name: 'Save', exact: true }).click();
    await agent.getByText('Scheduled article 1 saved.').waitFor();
    await agent.waitForURL(/\/risks\/scheduled-article$/);
    await expect.poll(() => agent.getByLabel('Appraised value').inputValue()).toBe('32000');
    // quote:add-risk (a deep link, as a plugin or the palette opens it): nothing is created until Save.
    await agent.goto(`${e2e.server.url}/quote/${number}/risk/add/scheduled_article`);
    await agent.getByRole('heading', { level: 1, name: 'New scheduled article' }).waitFor();
    await agent.getByLabel('Appraised value').fill('5000');
    await agent.getByRole('textbox', { name: 'Category' }).or(agent.getByLabel('Category')).first().click();
    await agent.getByRole('option', { name: 'Watch' }).click();
    await agent.getByRole('button', { name: 'Save', exact: true }).click();
    await agent.getByText('Scheduled article saved.').waitFor();
    await agent.waitForURL(/\/quote\/Q-\d+\/[^/]+\/[^/]+$/);
    await agent
      .getByRole('navigation', { name: 'Quote steps' })
      .getByRole('button', { name: /Scheduled article/ })
      .click();
    await agent.waitForURL(/\/risks\/scheduled-article$/);
    await agent.getByText('Scheduled article 2', { exact: true }).waitFor();
    await expect.poll(() => agent.getByLabel('Appraised value').nth(1).inputValue()).toBe('5000');

    await agent.getByRole('button', { name: 'Continue' }).click();
    await agent.waitForURL(/\/review\/review$/);

    // Rate, read the worksheet from the premium, submit: the old roof is referred.
    await agent.getByRole('button', { name: 'Rate', exact: true }).click();
    await agent.getByText('Quote rated.').waitFor();
    await agent.getByRole('button', { name: /open the worksheet/ }).click();
    await agent.getByRole('dialog', { name: 'Rating worksheet' }).getByText('dwelling premium').waitFor();
    await agent.keyboard.press('Escape');
    await agent.getByRole('button', { name: 'Submit', exact: true }).click();
    await agent.getByText('This quote is pending underwriter review.').waitFor();
    await agent.getByText('Roofs older than 25 years need underwriter review.').waitFor();
    // The roof's photos go with the referral: uploaded straight to storage with the server's ticket.
    await agent.locator('input[type=file]').setInputFiles({
      name: 'roof-photos.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 roof photos'),
    });
    await agent
      .getByRole('table', { name: 'Attachments' })
      .getByRole('button', { name: 'roof-photos.pdf', exact: true })
      .waitFor();

    // The underwriter finds the referral in the review queue, walks the pages unchanged and clears
    // the referral with a reason: the last open issue approved, the quote is Approved.
    const underwriter = await signIn('underwriter@atrium.test', '/quote/review');
    await underwriter.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    const referrals = underwriter.getByRole('table', { name: 'Referrals' });
    await referrals
      .getByRole('row')
      .filter({ hasText: 'Roofs older than 25 years need underwriter review.' })
      .first()
      .waitFor();
    await referrals.getByRole('link', { name: number, exact: true }).click();
    await underwriter.getByRole('heading', { level: 1, name: `Quote ${number}` }).waitFor();
    await underwriter.getByRole('button', { name: 'Continue' }).click();
    await underwriter.waitForURL(/\/risks\/scheduled-article$/);
    await underwriter.getByRole('button', { name: 'Continue' }).click();
    await underwriter.waitForURL(/\/review\/review$/);
    await underwriter
      .getByRole('button', { name: 'Approve: Roofs older than 25 years need underwriter review.' })
      .click();
    const clear = underwriter.getByRole('dialog', { name: 'Approve the referral' });
    await clear.getByLabel('Reason').fill('Roof inspected in February.');
    await clear.getByRole('button', { name: 'Approve referral' }).click();
    await underwriter.getByText('Congratulations! This quote is approved and ready to bind.').waitFor();
    await underwriter.getByRole('cell', { name: /Roof inspected in February\./ }).waitFor();
    await underwriter.getByRole('table', { name: 'Attachments' }).getByText('roof-photos.pdf').waitFor();

    // The agent reloads, chooses billing and binds.
    await agent.reload();
    await agent.getByText('Congratulations! This quote is approved and ready to bind.').waitFor();
    await agent.getByRole('button', { name: 'Continue' }).click();
    await agent.waitForURL(/\/issue\/billing$/);
    // The billing preview: each schedule with its installments and total from the policies module.
    await agent
      .getByRole('radio', { name: /^Paid in full — 1 × from \$[\d,]+\.\d{2}, total \$[\d,]+\.\d{2}$/ })
      .waitFor();
    // The choice is saved first and shown once the server has it (a controlled radio).
    await agent.getByRole('radio', { name: /^Paid in full/ }).click();
    await expect.poll(() => agent.getByRole('radio', { name: /^Paid in full/ }).isChecked()).toBe(true);
    await agent.getByText(/Card ending 4242/).waitFor();
    await agent.getByRole('button', { name: 'Continue' }).click();
    await agent.waitForURL(/\/issue\/bind$/);
    // The sidebar's Bind step is a button too; the panel's comes after it.
    await agent.getByRole('button', { name: 'Bind', exact: true }).last().click();
    const policy = agent.getByRole('alert').filter({ hasText: 'was issued from this quote' }).getByRole('link');
    await policy.waitFor();
    expect(await policy.textContent()).toMatch(/\S+-\d+/);
    expect(errors).toEqual([]);
  });

  it('agent e-mails the quote summary to the insured from the quote page; the mail is in the platform outbox', async () => {
    // A quote of the demo agent for a demo person who is a contact with an e-mail address.
    const api = await apiAs(e2e.server, 'agent@agency.test');
    const created = await (
      await api('POST', '/api/quote/', {
        product_name: 'homeowners',
        effective_date: '2026-03-01',
        named_insured: { contact_id: 'CON-1001' },
        state: 'TX',
      })
    ).json();
    const number: string = created.quote_number;

    const agent = await signIn('agent@agency.test', `/quote/${number}/risks/home`);
    await agent.getByRole('heading', { level: 1, name: `Quote ${number}` }).waitFor();
    await agent.getByRole('button', { name: 'Documents', exact: true }).click();
    const documents = agent.getByRole('dialog', { name: `Documents of quote ${number}` });
    const row = documents.getByRole('row').filter({ hasText: 'Quote summary' });
    await row.getByText('Not made yet').waitFor();
    await row.getByText('Not e-mailed').waitFor();

    await documents.getByRole('button', { name: 'E-mail: Quote summary' }).click();
    const dialog = agent.getByRole('dialog', { name: 'E-mail Quote summary' });
    // The insured's address is the default recipient; a bad one is refused in words.
    const to = await dialog.getByLabel('To').inputValue();
    expect(to).toMatch(/^[a-z]+\.[a-z]+@example\.test$/);
    await dialog.getByLabel('To').fill('not an address');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Enter a valid e-mail address, like name@example.com.').waitFor();
    await dialog.getByLabel('To').fill(to);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await agent.getByText(`E-mail to ${to} queued.`).waitFor();
    await expect
      .poll(async () => (await row.textContent()) ?? '')
      .toMatch(new RegExp(`(Sent|Waiting to send|Sending) to ${to.replace(/\./g, '\\.')}`));
    await row.getByText(/by agent@agency\.test/).waitFor();

    // The platform mail outbox holds it, the quote summary's PDF attached.
    const listed = await (await api('GET', `/api/quote/${number}/documents/`)).json();
    const summary = listed.data.find((d: { attributes: { name: string } }) => d.attributes.name === 'Quote summary');
    const mails = await (
      await api('GET', `/api/documents/production-documents/${summary.attributes.document.id}/emails/`)
    ).json();
    expect(mails.results[0]).toMatchObject({
      to: [to],
      subject: 'Quote summary (2026-03-01)',
      attachments: ['Quote summary (2026-03-01).pdf'],
      created_by: 'agent@agency.test',
    });
    expect(errors).toEqual([]);
  });
});
