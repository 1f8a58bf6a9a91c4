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

  it('an administrator merges a duplicate, relates two contacts and writes a note; the old link leads on', async () => {
    await query(`insert into contacts.contact (id, number, name, kind, roles, emails, phones) values
      ('CON-990001', 990001, 'Robin Reed', 'person', '["insured"]', '[{"address":"robin@example.test"}]', '[]'),
      ('CON-990002', 990002, 'Robin Reed', 'person', '["claimant"]', '[{"address":"robin@example.test"}]',
        '[{"number":"555-010-7788"}]'),
      ('CON-990003', 990003, 'Sam Reedly', 'person', '[]', '[]', '[]')`);
    // The adjuster may edit contacts but not merge them: no duplicates card.
    const adjuster = await session.signIn('adjuster@atrium.test', '/contacts/CON-990001');
    await adjuster.getByRole('heading', { name: 'Robin Reed', level: 1 }).waitFor();
    await adjuster.getByRole('heading', { name: 'Activity' }).waitFor();
    expect(await adjuster.getByRole('heading', { name: 'Possible duplicates' }).count()).toBe(0);

    const page = await session.signIn('admin@atrium.test', '/contacts/CON-990001');
    await page.getByRole('heading', { name: 'Possible duplicates' }).waitFor();
    await page.getByRole('button', { name: 'Merge Robin Reed (CON-990002) into this contact' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to merge this duplicate?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Robin Reed was merged into this contact.').waitFor();
    await page.getByText('555-010-7788', { exact: true }).waitFor();
    await page.getByText('A duplicate was merged into this contact').waitFor();

    const relation = page.getByRole('form', { name: 'New relation' });
    await relation.getByLabel('Robin Reed is …').fill('Spouse');
    await relation.getByLabel('… of contact').fill('Sam Reed');
    await page.getByRole('option', { name: 'Sam Reedly' }).click();
    await relation.getByRole('button', { name: 'Add relation' }).click();
    await page.getByText('Relation added.').waitFor();
    await page.getByRole('link', { name: 'Sam Reedly' }).waitFor();
    await page.getByText('Relation added', { exact: true }).waitFor();

    const note = page.getByRole('form', { name: 'New note' });
    await note.getByLabel('New note').fill('Prefers a call after 5 pm.');
    await note.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Prefers a call after 5 pm.').waitFor();
    await page.getByText('Note added', { exact: true }).waitFor();

    // The duplicate's old address says where it went.
    await page.goto(`${session.server.url}/contacts/CON-990002`);
    await page.getByText('Robin Reed was merged into another contact.').waitFor();
    await page.getByRole('link', { name: 'Robin Reed' }).click();
    await page.waitForURL((url) => url.pathname === '/contacts/CON-990001');
    expect(session.errors).toEqual([]);
  });
});
