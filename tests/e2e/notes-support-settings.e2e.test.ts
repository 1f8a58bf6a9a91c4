import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/**
 * In Chromium: a note on a claim in the activity sidebar (and the warning when toggling it unsaved),
 * a support ticket with a screenshot that then shows among the outstanding tickets, and an
 * administrator renaming the carrier in Settings.
 */
describe('notes, support tickets and settings in the browser', () => {
  const session = useE2eSession('notes-support-settings');
  const query = async <T>(text: string) => (await session.server.atrium.database.pool.query(text)).rows as T[];

  it('writes a note on a claim in the activity sidebar, warned when toggling it unsaved', async () => {
    const [claim] = await query<{ number: string }>(
      `select number from claims.claim where status <> 'draft' order by id limit 1`,
    );
    const page = await session.signIn('adjuster@atrium.test', `/claims/${claim!.number}/details`);
    const activity = page.getByRole('toolbar', { name: 'Activity' });
    await activity.getByRole('button', { name: 'Notes' }).click();
    const panel = page.getByRole('region', { name: 'Notes' });
    await panel.getByText(`Claim ${claim!.number}`).waitFor();
    await panel.getByRole('textbox', { name: 'Note' }).fill('Insured sent the repair estimate.');

    await activity.getByRole('button', { name: 'Notes' }).click();
    await panel
      .getByRole('alert')
      .filter({ hasText: 'You have unsaved changes in Notes. Please save or cancel your changes.' })
      .waitFor();

    await panel.getByRole('button', { name: 'Save note' }).click();
    await panel
      .getByRole('article', { name: 'Note by Casey Adjuster' })
      .getByText('Insured sent the repair estimate.')
      .waitFor();
    // Saved: the sidebar closes again.
    await activity.getByRole('button', { name: 'Notes' }).click();
    await panel.waitFor({ state: 'detached' });

    await page.goto(`${session.server.url}/notes`);
    await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor();
    await page.getByRole('link', { name: `Claim ${claim!.number}` }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('submits a support ticket with a screenshot and finds it among the outstanding tickets', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/');
    await page.getByRole('button', { name: 'Help' }).click();
    const help = page.getByRole('dialog', { name: 'Help' });
    await help.getByRole('button', { name: 'Submit a Support Ticket' }).click();
    await help.getByRole('button', { name: 'Submit' }).click();
    await help.getByText("We're sorry, but some information is missing.").waitFor();
    await help.getByRole('textbox', { name: 'Subject' }).fill('Estimate upload fails');
    await help.getByRole('textbox', { name: 'Description' }).fill('The upload spinner never stops.');
    await help.locator('input[type=file]').setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PNG });
    await help.getByRole('checkbox', { name: 'This problem stops me from working' }).check();
    await help.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Success! Your ticket was created.').waitFor();

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /user menu/ }).click();
    await page.getByRole('menuitem', { name: 'Outstanding tickets' }).click();
    await page.getByRole('heading', { name: 'Outstanding tickets', level: 1 }).waitFor();
    const row = page
      .getByRole('table', { name: 'Support tickets' })
      .getByRole('row', { name: /Estimate upload fails/ });
    await row.getByText('Critical').waitFor();
    await row.getByRole('button', { name: 'screen.png' }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('an administrator renames the carrier in Settings and the top bar follows', async () => {
    const page = await session.signIn('admin@atrium.test', '/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const name = page.getByRole('textbox', { name: 'Carrier name' });
    await name.fill('Harbour Mutual');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.getByRole('banner').getByText('Harbour Mutual').waitFor();
    expect(session.errors).toEqual([]);
  });

  it('an administrator sets how Texas sends renewal offers, and other deliverables keep the default', async () => {
    // `g s` opens Settings from anywhere.
    const page = await session.signIn('admin@atrium.test', '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.waitForURL((url) => url.pathname === '/settings');
    const table = page.getByRole('table', { name: 'Mass deliverables' });
    await table.getByRole('cell', { name: 'Renewal offer' }).waitFor();
    await page.getByLabel('State', { exact: true }).first().click();
    await page.getByRole('option', { name: 'TX', exact: true }).click();
    const sentBy = table.getByLabel('Renewal offer: sent by');
    await expect.poll(() => sentBy.inputValue()).toBe('Same as default');
    await sentBy.click();
    await page.getByRole('option', { name: 'Print, mail and e-mail' }).click();
    await table.getByLabel('Renewal offer: days ahead').fill('60');
    await page.getByRole('button', { name: 'Save mass deliverables' }).click();
    await page.getByText('Mass deliverables for TX saved.').waitFor();
    const saved = await session.server.atrium.database.pool.query(
      "select deliverable, delivery, days_before from settings.mass_deliverable where state = 'TX'",
    );
    expect(saved.rows).toEqual([{ deliverable: 'renewal-offer', delivery: 'print-and-email', days_before: 60 }]);
    expect(session.errors).toEqual([]);
  });
});
