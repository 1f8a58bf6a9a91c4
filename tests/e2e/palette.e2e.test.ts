import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * The palette as the front door (issue 13) in the built app against the real server: F1 opens it,
 * a claim number typed there finds the claim through the claims quick search without choosing it,
 * and picking it lands on the claim's workspace; every module has a `g` chord, listed in `?`; All
 * Modules shows My work above the tiles.
 */
describe('Command palette and module chords', () => {
  const { errors, signIn } = useE2eSession('palette');

  it('finds CLM-000040 from F1 and opens its workspace', async () => {
    const page = await signIn('admin@atrium.test', '/');
    await page.getByRole('heading', { name: 'All Modules', level: 1 }).waitFor({ timeout: 60_000 });
    const myWork = page.getByRole('region', { name: 'My work' });
    await myWork.getByRole('heading', { name: 'My open claims' }).waitFor();
    await myWork.getByRole('heading', { name: 'Payments awaiting approval' }).waitFor();

    await page.keyboard.press('F1');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox');
    await input.waitFor();
    // One entry per destination: Users is listed once under Go to (Access › Users is another page).
    await input.fill('users');
    const goTo = palette.getByRole('group', { name: 'Go to' });
    await goTo.getByRole('option', { name: /Users/ }).first().waitFor();
    // An option reads breadcrumb, title, shortcut: the Users module's own sub-pages ("Users › New
    // user") also start with "Users", so count the destination whose title is Users alone.
    const names = await goTo.getByRole('option').allTextContents();
    const usersDestinations = names.filter((name) => /^Users\s*(G then U)?$/.test(name.trim()));
    expect(usersDestinations).toHaveLength(1);
    expect(usersDestinations[0]).toContain('G then U');

    await input.fill('CLM-000040');
    const claims = palette.getByRole('group', { name: 'Matching Claims' });
    const claim = claims.getByRole('option', { name: /CLM-000040/ });
    await claim.waitFor({ timeout: 60_000 });
    await claim.click();
    await page.waitForURL((url) => url.pathname === '/claims/CLM-000040/details');
    await page.getByRole('heading', { name: 'Claim CLM-000040' }).first().waitFor({ timeout: 60_000 });
    await palette.waitFor({ state: 'hidden' });

    // Opened from the palette, it is the first recent item next time (Ctrl+K opens it too).
    await page.keyboard.press('Control+k');
    await palette
      .getByRole('group', { name: 'Recent' })
      .getByRole('option', { name: /CLM-000040/ })
      .waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });

    // F1 types nothing, so it opens the palette from inside a text field too.
    await page.goto(`${page.url().split('/claims/')[0]}/users`);
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill('adj');
    await page.keyboard.press('F1');
    await input.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });
    expect(await search.inputValue()).toBe('adj');
    await page.close();
  });

  it('shows each role the work modules contribute, and each row opens its record', async () => {
    // The agent: their own open quotes, nothing of the staff's queues.
    const agent = await signIn('agent@agency.test', '/');
    const agentWork = agent.getByRole('region', { name: 'My work' });
    const quotes = agentWork.getByRole('list').first();
    await agentWork.getByRole('heading', { name: 'My open quotes' }).waitFor({ timeout: 60_000 });
    await quotes.getByRole('link', { name: 'Q-900001' }).waitFor();
    // Bound, declined and abandoned quotes are not open work.
    expect(await quotes.getByRole('listitem').allTextContents()).not.toContainEqual(expect.stringMatching(/Declined/));
    const headings = await agentWork.getByRole('heading').allTextContents();
    for (const staffOnly of ['My open claims', 'Referrals awaiting review', 'Failed renewals', 'Open exceptions'])
      expect(headings).not.toContain(staffOnly);
    // Their book's in-force policies, the earliest end of term first.
    await agentWork.getByRole('heading', { name: 'Policies renewing next' }).waitFor();
    await agentWork
      .getByRole('link', { name: /^(HO|PA)-\d+$/ })
      .first()
      .waitFor();
    await quotes.getByRole('link', { name: 'Q-900001' }).click();
    await agent.waitForURL((url) => url.pathname.startsWith('/quote/Q-900001'));
    await agent.close();

    // The administrator underwrites and renews: referrals open on the quote's review page, failed
    // renewals on the policy.
    const admin = await signIn('admin@atrium.test', '/');
    const adminWork = admin.getByRole('region', { name: 'My work' });
    const referral = adminWork.getByRole('link', { name: 'Q-900002' });
    await referral.waitFor({ timeout: 60_000 });
    await adminWork.getByRole('heading', { name: 'Open exceptions' }).waitFor();
    await adminWork.getByRole('link', { name: 'PA-100008' }).waitFor();
    await referral.click();
    await admin.waitForURL((url) => url.pathname === '/quote/Q-900002/review/review');
    await admin.goBack();
    await adminWork.getByRole('link', { name: 'PA-100008' }).click();
    await admin.waitForURL((url) => url.pathname.startsWith('/policies/policy/'));
    await admin.getByText('PA-100008').first().waitFor({ timeout: 60_000 });
    await admin.close();
  });

  it('lists every module chord in ?', async () => {
    const page = await signIn('admin@atrium.test', '/');
    await page.getByRole('heading', { name: 'All Modules', level: 1 }).waitFor({ timeout: 60_000 });
    // Pressing the chords is covered by packages/host/src/shortcuts/module-chords.test.ts.
    await page.keyboard.press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard Shortcuts' });
    await shortcuts.waitFor();
    for (const [keys, action] of [
      ['G then H', 'Go to All Modules'],
      ['G then U', 'Go to Users'],
      ['G then A', 'Go to Access'],
      ['G then L', 'Go to Lines'],
      ['G then Q', 'Go to Quotes'],
      ['G then D', 'Go to Documents'],
      ['G then R', 'Go to Rules'],
      ['G then I', 'Go to Integrations'],
      ['G then S', 'Go to Settings'],
      ['G then C', 'Claim quick search'],
      ['F1', 'Open Command Palette'],
    ]) {
      await shortcuts.getByRole('row', { name: new RegExp(`${keys}.*${action}`) }).waitFor();
    }
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'hidden' });
    // The chords added with the modules, pressed in the built app: each lands on its module.
    for (const [letter, path, heading] of [
      ['q', '/quote', 'Quotes'],
      ['d', '/documents', 'Documents'],
      ['r', '/rules', 'Rules'],
      ['i', '/integrations/dashboard', 'Integrations'],
    ] as const) {
      await page.keyboard.press('g');
      await page.keyboard.press(letter);
      await page.waitForURL((url) => url.pathname === path);
      await page
        .getByRole('heading', { level: 1, name: new RegExp(heading) })
        .first()
        .waitFor();
    }
    await page.close();
  });

  it('logged no errors in the browser', () => {
    expect(errors).toEqual([]);
  });
});
