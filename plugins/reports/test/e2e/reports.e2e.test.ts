import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * In Chromium: an agent signs in, sees the agent navigation (spec: New Quote, Policies and Quotes,
 * Claims, Payments, Reports, BriteApps), opens Reports → Loss run by policy for one of their
 * policies, and downloads it as XLSX; the file's rows are the policy's claims.
 */
describe('reports and the agent portal in the browser', () => {
  const session = useE2eSession('reports');
  const query = async <T>(text: string) => (await session.server.atrium.database.pool.query(text)).rows as T[];

  it('an agent runs the loss run of one policy and downloads it as XLSX', async () => {
    // The agent's policy with the most claims (claims' own producer rule, as the API test: the
    // producer copied from a policies-module policy, else the mock revision's).
    const claims = await query<{ number: string; policy_number: string }>(
      `select c.number, c.policy_number from claims.claim c
        where c.status <> 'draft'
          and c.policy_number = (
            select c2.policy_number from claims.claim c2
              left join claims.policy_revision r on r.id = c2.policy_revision_id
             where coalesce(c2.policy_agent_contact_id, r.agent_contact_id) = 'CON-AGENT-ALEX'
               and c2.status <> 'draft'
             group by c2.policy_number order by count(*) desc, c2.policy_number limit 1)
        order by c.id`,
    );
    const policyNumber = claims[0]!.policy_number;

    // All Modules is a full-page layout; the agent navigation is the sidebar of every other page.
    const page = await session.signIn('agent@agency.test', '/reports');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'BriteApps' }).waitFor();
    const titles = (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim());
    const spec = ['New Quote', 'Policies and Quotes', 'Claims', 'Payments', 'Reports', 'BriteApps'];
    expect(titles.filter((t) => spec.includes(t))).toEqual(spec);
    await expect.poll(() => page.locator('[data-audience]').first().getAttribute('data-audience')).toBe('agency');

    // BriteApps: honest about third-party apps not being enabled.
    await nav.getByRole('link', { name: 'BriteApps' }).click();
    await page.getByText('No BriteApps are enabled for agents.').waitFor();
    // Payments: the invoices of the agent's policies.
    await nav.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('table', { name: 'Invoices' }).waitFor();

    await nav.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Loss run by policy' }).click();
    await page.getByRole('heading', { name: 'Loss run by policy', level: 1 }).waitFor();
    const policy = page.getByRole('combobox', { name: 'Policy' });
    await policy.click();
    await policy.fill(policyNumber);
    // A policy of the agent's book is labelled with its insured and line; one known only from claims
    // by its number.
    await page.getByRole('option', { name: new RegExp(`^${policyNumber}( · .*)?$`) }).click();
    await page.getByRole('button', { name: 'Run report' }).click();
    const table = page.getByRole('table', { name: `Loss run by policy: ${policyNumber}` });
    await table.waitFor({ timeout: 30_000 });
    expect(await table.locator('tbody tr td:first-child').allInnerTexts()).toEqual(claims.map((c) => c.number));
    await page.getByRole('figure', { name: 'Incurred by claim' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download XLSX' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Loss run by policy - ${policyNumber}.xlsx`);
    const saved = path.join(tmpdir(), `atrium-e2e-${Date.now()}-loss-run.xlsx`);
    await download.saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(saved)) as never);
    await rm(saved, { force: true });
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]!.slice(0, 3)).toEqual(['Claim', 'Status', 'Policy']);
    expect(rows.slice(1, -1).map((r) => r[0])).toEqual(claims.map((c) => c.number));
    expect(rows.slice(1, -1).every((r) => r[2] === policyNumber)).toBe(true);
    expect(rows.at(-1)![0]).toBe('Total');
    expect(session.errors).toEqual([]);
  }, 240_000);
});
