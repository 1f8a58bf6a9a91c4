import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * In Chromium: `g n` finds a claim's claimant by name and opens the contact, which lists that claim
 * (and the classic contact link lands there); an agent finds only the contacts of their own book.
 */
describe('contacts in the browser', () => {
  const session = useE2eSession('contacts');
  const query = async <T>(text: string) => (await session.server.atrium.database.pool.query(text)).rows as T[];

  it('g n finds a claimant by name and opens the contact, which lists the claim', async () => {
    const [party] = await query<{ name: string; number: string }>(
      `select p.name, c.number from claims.party p join claims.claim c on c.id = p.claim_id
        where p.role = 'claimant' order by c.id limit 1`,
    );
    const page = await session.signIn('adjuster@atrium.test', '/contacts');
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('n');
    const search = page.getByRole('dialog', { name: 'Contact Quick Search' });
    await search.waitFor();
    await page.keyboard.type(party!.name);
    const option = search.getByRole('option', { name: new RegExp(party!.name) });
    await option.waitFor();
    await option.click();
    await page.waitForURL((url) => url.pathname.startsWith('/contacts/CON-'));
    const contactId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    await page.getByRole('heading', { name: party!.name, level: 1 }).waitFor();
    const claims = page.getByRole('table', { name: 'Claims of this contact' });
    await claims.getByRole('link', { name: party!.number }).waitFor();
    expect(await claims.getByRole('cell', { name: 'Claimant' }).count()).toBeGreaterThan(0);

    // The classic link of the previous portal lands on the same page.
    await page.goto(`${session.server.url}/atrium/contacts/information?id=${encodeURIComponent(contactId)}`);
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/contacts/${contactId}`);
    await page.getByRole('heading', { name: party!.name, level: 1 }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('an agent finds only the contacts of their own book', async () => {
    const own = await query<{ name: string }>(
      `select distinct c.name from contacts.contact c join contacts.contact_book b on b.contact_id = c.id
        where b.agent_contact_id = 'CON-AGENT-ALEX' order by c.name`,
    );
    const page = await session.signIn('agent@agency.test', '/contacts');
    const table = page.getByRole('table', { name: 'Contacts' });
    await table.getByRole('link', { name: 'Alex Agent' }).waitFor();
    const shown = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(shown.map((s) => s.trim()).sort()).toEqual(own.map((o) => o.name).sort());
    expect(shown).not.toContain('Noor Producer');

    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('n');
    const search = page.getByRole('dialog', { name: 'Contact Quick Search' });
    await search.waitFor();
    await page.keyboard.type('Noor');
    await search.getByText('No matching Contacts found.').waitFor();
    expect(session.errors).toEqual([]);
  });
});
