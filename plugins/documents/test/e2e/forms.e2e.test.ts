import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { createDemoStateForm, STATE_FORM_NAME } from '../../server/seed/demo-state-form.js';

/** Picks an option of a Mantine Select by its accessible label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Imported PDF forms: an author imports an AcroForm, maps its fields, previews it filled and publishes it. */
describe('documents: imported PDF forms', () => {
  const session = useE2eSession('documents-forms');

  it('imports a form, blocks publishing until the required fields are mapped, previews and publishes it', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'atrium-form-')), 'disclosure.pdf');
    writeFileSync(file, await createDemoStateForm());
    const page = await session.signIn('author@atrium.test', '/documents');
    // The demo form sits in the tree beside the templates.
    await page.getByRole('link', { name: STATE_FORM_NAME }).waitFor();
    await page.getByRole('button', { name: 'Collapse Homeowners' }).click();
    await page.getByText('Selected folder: Policies › Homeowners').waitFor();
    await page.getByRole('button', { name: 'Import PDF form' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import PDF form' });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('A document name is required.').waitFor();
    // Named per attempt: a retry against the same server imports its own form.
    const formName = `Renewal disclosure ${Date.now().toString(36).slice(-5).toUpperCase()}`;
    await dialog.getByLabel('Name').fill(formName);
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Import' }).click();

    await page.getByRole('heading', { name: formName, level: 1 }).waitFor();
    await page.getByText(`"${formName}" imported with 9 fields.`).waitFor();
    const blocked = page.getByTestId('unmapped-required');
    await blocked
      .getByText(
        'Publishing is blocked until every required field is mapped: policy_number, insured_name, premises, effective_date, payment_plan.',
      )
      .waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Publish' }).isDisabled(), { timeout: 10_000 }).toBe(true);
    const fields = page.getByRole('table', { name: 'Form fields' });
    await fields
      .getByRole('row', { name: /payment_plan/ })
      .getByText('Radio buttons')
      .waitFor();
    await fields
      .getByRole('row', { name: /county/ })
      .getByText('Dropdown')
      .waitFor();
    await fields
      .getByRole('row', { name: /fraud_notice_acknowledged/ })
      .getByText('Checkbox')
      .waitFor();

    for (const [field, point] of [
      ['policy_number', 'policy.number (HO-2026-000123)'],
      ['insured_name', 'policy.insured.name (Jordan Avery)'],
      ['premises', 'policy.insured.address (12 Harbor Lane, Portland, ME 04101)'],
      ['effective_date', 'policy.term_start (2026-03-01)'],
    ] as const) {
      await choose(page, `Source of ${field}`, 'Data point');
      await choose(page, `Value of ${field}`, point);
    }
    await choose(page, 'Source of payment_plan', 'Ignored');
    await blocked.getByText(/mapped: payment_plan\.$/).waitFor();
    await choose(page, 'Source of payment_plan', 'Constant');
    await choose(page, 'Value of payment_plan', 'Quarterly');
    await choose(page, 'Source of fraud_notice_acknowledged', 'Constant');
    await choose(page, 'Value of fraud_notice_acknowledged', 'Checked');
    await choose(page, 'Source of producer_signature', 'Ignored');
    await blocked.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('Mapping saved.').waitFor();
    await page.getByRole('button', { name: 'Preview filled form' }).click();
    await page.getByTestId('form-preview').getByText('Filled with the sample data: 1 page.').waitFor();
    await page.getByText('Every mapped data point had a value.').waitFor();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText(`"${formName}" published.`).waitFor();
    await page.getByText('A published form is frozen', { exact: false }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Source of premises', exact: true }).isDisabled(), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Save mapping' }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('shows an adjuster the demo form and its mapping read-only', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/documents');
    await page.getByRole('link', { name: STATE_FORM_NAME }).click();
    await page.getByRole('heading', { name: STATE_FORM_NAME, level: 1 }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Value of payment_plan', exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .toBe('Annual');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Source of producer_signature', exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .toBe('Ignored');
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import PDF form' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Preview filled form' }).click();
    await page.getByText('Every mapped data point had a value.').waitFor();
    expect(session.errors).toEqual([]);
  });

  it("lets an author change the declarations settings: a line's dec page and the form rules", async () => {
    const page = await session.signIn('author@atrium.test', '/documents');
    await page.getByRole('link', { name: 'Declarations settings' }).click();
    await page.getByRole('heading', { name: 'Declarations settings', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Dec page of Homeowners', exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .toBe('Homeowners declarations page');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Form of rule 1', exact: true }).inputValue(), { timeout: 10_000 })
      .toBe(STATE_FORM_NAME);
    await expect.poll(() => page.getByLabel('State of rule 1').inputValue(), { timeout: 10_000 }).toBe('ME');
    await expect
      .poll(() => page.getByLabel(`Always print ${STATE_FORM_NAME} on renewal`).isChecked(), { timeout: 10_000 })
      .toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'Save settings' }).isDisabled(), { timeout: 10_000 })
      .toBe(true);
    // Flip it (a retry against the same server finds the first attempt's choice saved).
    const mortgagee = page.getByLabel(`Print ${STATE_FORM_NAME} only with a mortgagee`);
    const wanted = !(await mortgagee.isChecked());
    await mortgagee.setChecked(wanted);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Declarations settings saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Declarations settings', level: 1 }).waitFor();
    await expect.poll(() => mortgagee.isChecked()).toBe(wanted);
    // A state that is not two letters is refused in words.
    await page.getByLabel('State of rule 1').fill('Maine');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('A state is two capital letters, such as ME.').waitFor();
    expect(session.errors).toEqual([]);

    const reader = await session.signIn('adjuster@atrium.test', '/documents/settings');
    await reader.getByText('You may read these settings but not change them.', { exact: false }).waitFor();
    await expect.poll(() => reader.getByLabel('State of rule 1').isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await reader.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
  });
});
