import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import type { ReportRunJson } from '../shared/report-definitions.js';

/**
 * Reports over real HTTP on the demo data, as the demo users. Every expected figure is computed here
 * straight from the database (claims' and policies' tables, which the reports module itself never
 * reads), so a report that sums, scopes or rounds wrongly fails.
 */
describe('reports', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const query = async <T>(text: string, values: unknown[] = []) =>
    (await server.atrium.database.pool.query(text, values)).rows as T[];
  const api = (user: string) => as(server, user, { base: '/api/reports' });
  const today = new Date().toISOString().slice(0, 10);
  const DAY = 86_400_000;
  const addDays = (day: string, n: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
  const cents = (value: string | number) => Math.round(Number(value) * 100);

  /** Starts a run and waits for the job to finish it. */
  async function run(user: string, report: string, filters: Record<string, unknown>): Promise<ReportRunJson> {
    const caller = await api(user);
    const started = await caller.post('/runs/', { report, filters });
    expect(started.status).toBe(202);
    let body = (await started.json()) as ReportRunJson;
    expect(body.status).toBe('NEW');
    const deadline = Date.now() + 60_000;
    while (body.status === 'NEW' || body.status === 'IN_PROGRESS') {
      if (Date.now() > deadline) throw new Error(`Run ${body.id} did not finish.`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      body = (await (await caller.get(`/runs/${body.id}/`)).json()) as ReportRunJson;
    }
    expect(body.error).toBeNull();
    expect(body).toMatchObject({ status: 'SUCCESS', progress: '100.00' });
    return body;
  }

  /** The claims an agent may read (claims' own rule: their policies' claims, and those they filed). */
  const agentClaims = (contactId: string, username: string) =>
    query<{ number: string; policy_number: string | null; paid: string; reserve: string; incurred: string }>(
      `select c.number, c.policy_number,
              coalesce(b.paid, 0)::text as paid, coalesce(b.reserve_outstanding, 0)::text as reserve,
              coalesce(b.total_incurred, 0)::text as incurred
         from claims.claim c left join claims.claim_balance b on b.claim_id = c.id
        where c.status <> 'draft'
          and (coalesce(c.policy_agent_contact_id,
                        (select r.agent_contact_id from claims.policy_revision r where r.id = c.policy_revision_id)) = $1
               or c.created_by = $2)
        order by c.id`,
      [contactId, username],
    );

  it("gives an agent the loss run of one of their policies, with the figures of that policy's claims", async () => {
    const mine = await agentClaims('CON-AGENT-ALEX', 'agent@agency.test');
    const counts = new Map<string, number>();
    for (const c of mine) if (c.policy_number) counts.set(c.policy_number, (counts.get(c.policy_number) ?? 0) + 1);
    const [policyNumber] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const expected = mine.filter((c) => c.policy_number === policyNumber);
    expect(expected.length).toBeGreaterThan(1);

    const loss = await run('agent@agency.test', 'loss-run-policy', { policyNumber });
    const result = loss.result!;
    expect(result.title).toBe(`Loss run by policy: ${policyNumber}`);
    expect(result.rows.map((r) => r.claim_number)).toEqual(expected.map((c) => c.number));
    expect(result.rows.map((r) => cents(r.paid as string))).toEqual(expected.map((c) => cents(c.paid)));
    const incurred = expected.reduce((sum, c) => sum + cents(c.incurred), 0);
    expect(cents(result.totals!.total_incurred as string)).toBe(incurred);
    expect(result.summary.find((s) => s.label === 'Claims')!.value).toBe(String(expected.length));
    expect(result.chart!.data).toHaveLength(expected.length);

    // CSV: the header, a line per claim and the totals line, money as decimal text.
    const agent = await api('agent@agency.test');
    const csv = await agent.get(`/runs/${loss.id}/export/?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain(`.csv`);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Claim,Status,Policy,Product,Date of loss,Reported,Loss state,Reserve outstanding,Paid,Recovered,Total incurred',
    );
    expect(lines).toHaveLength(expected.length + 2);
    expect(lines[1]!.split(',')[0]).toBe(expected[0]!.number);
    expect(lines.at(-1)!.split(',').at(-1)).toBe((incurred / 100).toFixed(2));

    // XLSX: one worksheet with the same rows; money as number cells.
    const xlsx = await agent.get(`/runs/${loss.id}/export/?format=xlsx`);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Claim');
    expect(sheet.rowCount).toBe(expected.length + 2);
    expected.forEach((claim, i) => {
      expect(sheet.getRow(i + 2).getCell(1).value).toBe(claim.number);
      expect(Math.round((sheet.getRow(i + 2).getCell(9).value as number) * 100)).toBe(cents(claim.paid));
    });

    // Another producer's policy: the agent's loss run of it is empty.
    // A claim's producer: copied from a policies-module policy (the demo's), else its mock revision's.
    const producer = (c: string) =>
      `coalesce(${c}.policy_agent_contact_id,
                (select r.agent_contact_id from claims.policy_revision r where r.id = ${c}.policy_revision_id))`;
    const [foreign] = await query<{ policy_number: string }>(
      `select c.policy_number from claims.claim c
        where ${producer('c')} <> 'CON-AGENT-ALEX' and c.status <> 'draft' and c.created_by <> 'agent@agency.test'
          and c.policy_number not in (select c2.policy_number from claims.claim c2
                                       where ${producer('c2')} = 'CON-AGENT-ALEX')
        limit 1`,
    );
    const other = await run('agent@agency.test', 'loss-run-policy', { policyNumber: foreign!.policy_number });
    expect(other.result!.rows).toEqual([]);
    // The picker offers only the agent's own policies.
    const options = (await (await agent.get('/options/')).json()) as { policies: { number: string }[] };
    expect(options.policies.map((p) => p.number)).toContain(policyNumber);
    expect(options.policies.map((p) => p.number)).not.toContain(foreign!.policy_number);
  });

  it("limits an agent's claims register to the agent's book; the administrator's covers every claim", async () => {
    const mine = await agentClaims('CON-AGENT-ALEX', 'agent@agency.test');
    const agentRun = await run('agent@agency.test', 'claims-register', {});
    expect(agentRun.result!.rows.map((r) => r.claim_number)).toEqual(mine.map((c) => c.number));
    const [all] = await query<{ n: number }>(`select count(*)::int as n from claims.claim where status <> 'draft'`);
    const adminRun = await run('admin@atrium.test', 'claims-register', {});
    expect(adminRun.result!.rows).toHaveLength(all!.n);
    expect(all!.n).toBeGreaterThan(mine.length);
    // An agency's register is its agency's book (both of Harbour's agents), not Northgate's.
    const [agencyBook] = await query<{ n: number }>(
      `select count(*)::int as n from claims.claim c
        where c.status <> 'draft'
          and (coalesce(c.policy_agency_contact_id,
                        (select r.agency_contact_id from claims.policy_revision r where r.id = c.policy_revision_id))
                 = 'CON-AGENCY-HARBOUR' or c.created_by = 'agency@agency.test')`,
    );
    const agencyRun = await run('agency@agency.test', 'claims-register', {});
    expect(agencyRun.result!.rows).toHaveLength(agencyBook!.n);
    expect(agencyBook!.n).toBeGreaterThan(mine.length);
    expect(agencyBook!.n).toBeLessThan(all!.n);
    // Filtered by status.
    const [closed] = await query<{ n: number }>(`select count(*)::int as n from claims.claim where status = 'closed'`);
    const closedRun = await run('admin@atrium.test', 'claims-register', { status: 'closed' });
    expect(closedRun.result!.rows).toHaveLength(closed!.n);
    expect(new Set(closedRun.result!.rows.map((r) => r.status))).toEqual(new Set(['Closed']));
  });

  it('computes written and earned premium from the policy terms', async () => {
    // A policy with one revision: written is its premium, earned its share of the days so far.
    const [single] = await query<{ number: string; effective: string; expiration: string; premium: string }>(
      `select p.number, t.effective_date::text as effective, t.expiration_date::text as expiration, t.premium::text as premium
         from policies.policy p join policies.policy_term t on t.policy_id = p.id
        where (select count(*) from policies.policy_revision r where r.policy_id = p.id) = 1
          and (select count(*) from policies.policy_term t2 where t2.policy_id = p.id) = 1
        order by p.id limit 1`,
    );
    const premium = await run('admin@atrium.test', 'premium', { from: single!.effective, to: today });
    const row = premium.result!.rows.find((r) => r.policy_number === single!.number)!;
    const termDays = (Date.parse(single!.expiration) - Date.parse(single!.effective)) / DAY;
    const daysEarned = (Date.parse(addDays(today, 1)) - Date.parse(single!.effective)) / DAY;
    expect(row.written_premium).toBe(single!.premium);
    expect(cents(row.earned_premium as string)).toBe(Math.round((cents(single!.premium) * daysEarned) / termDays));

    // Written premium over every term: the written-premium changes of revisions dated in the period.
    const from = addDays(today, -365);
    const [written] = await query<{ total: string }>(
      `select coalesce(sum(written_premium_delta), 0)::text as total from policies.policy_revision
        where revision_state <> 'pending' and revision_date between $1 and $2`,
      [from, today],
    );
    const year = await run('admin@atrium.test', 'premium', { from, to: today });
    expect(cents(year.result!.totals!.written_premium as string)).toBe(cents(written!.total));
  });

  it('sums the reserves and payments posted in a period', async () => {
    const from = addDays(today, -3650);
    const [ledger] = await query<{ paid: string; reserve: string }>(
      `select coalesce(sum(e.amount) filter (where e.kind = 'payment'), 0)::text as paid,
              coalesce(sum(e.amount) filter (where e.kind like 'reserve%'), 0)::text as reserve
         from claims.ledger_entry e join claims.claim c on c.id = e.claim_id
        where c.status <> 'draft' and e.posted_at >= $1::date and e.posted_at < ($2::date + 1)`,
      [from, today],
    );
    const result = (await run('supervisor@atrium.test', 'reserves-payments', { from, to: today })).result!;
    expect(cents(result.totals!.paid as string)).toBe(cents(ledger!.paid));
    expect(cents(result.totals!.reserve_change as string)).toBe(cents(ledger!.reserve));
    expect(Number(ledger!.paid)).toBeGreaterThan(0);
  });

  it("gives an agent's production and payments only the agent's own book", async () => {
    const production = await run('agent@agency.test', 'agent-production', { from: addDays(today, -400), to: today });
    expect(production.result!.rows.map((r) => r.agent)).toEqual(['Alex Agent']);

    const [invoices] = await query<{ n: number }>(
      `select count(*)::int as n from policies.invoice i join policies.policy p on p.id = i.policy_id
        where p.agent_contact_id = 'CON-AGENT-ALEX'`,
    );
    const payments = (await (await (await api('agent@agency.test')).get('/payments/')).json()) as {
      invoices: { policy_number: string }[];
      payments: { amount: string }[];
    };
    expect(payments.invoices).toHaveLength(invoices!.n);
    const own = new Set(
      (
        await query<{ number: string }>(`select number from policies.policy where agent_contact_id = 'CON-AGENT-ALEX'`)
      ).map((p) => p.number),
    );
    expect(payments.invoices.every((i) => own.has(i.policy_number))).toBe(true);
    expect(payments.payments.length).toBeGreaterThan(0);
  });

  it('refuses what the caller may not do, and filters that do not hold', async () => {
    const author = await api('author@atrium.test');
    const refused = await author.post('/runs/', { report: 'claims-register', filters: {} });
    expect(refused.status).toBe(403);
    // …and the reports page offers that role only what it may run.
    expect(await (await author.get('/available/')).json()).toEqual({ reports: ['premium'] });
    const agentReports = (await (await (await api('agent@agency.test')).get('/available/')).json()) as {
      reports: string[];
    };
    expect(agentReports.reports).toHaveLength(7);

    const admin = await api('admin@atrium.test');
    const badDate = await admin.post('/runs/', { report: 'premium', filters: { from: '2026-13-01', to: today } });
    expect(badDate.status).toBe(400);
    expect(((await badDate.json()) as { detail: string }).detail).toBe('From: enter a date as YYYY-MM-DD.');
    const noPolicy = await admin.post('/runs/', { report: 'loss-run-policy', filters: {} });
    expect(((await noPolicy.json()) as { detail: string }).detail).toBe('Choose a policy.');
    expect((await admin.post('/runs/', { report: 'no-such-report', filters: {} })).status).toBe(400);

    // A run is its starter's: another user gets a 404 for it, as for a missing one.
    const mine = await run('admin@atrium.test', 'loss-run-period', { from: addDays(today, -365), to: today });
    const [period] = await query<{ n: number; incurred: string }>(
      `select count(*)::int as n, coalesce(sum(b.total_incurred), 0)::text as incurred
         from claims.claim c left join claims.claim_balance b on b.claim_id = c.id
        where c.status <> 'draft' and c.date_of_loss >= $1::date and c.date_of_loss < ($2::date + 1)`,
      [addDays(today, -365), today],
    );
    expect(mine.result!.totals!.claims).toBe(period!.n);
    expect(period!.n).toBeGreaterThan(0);
    expect(cents(mine.result!.totals!.total_incurred as string)).toBe(cents(period!.incurred));
    const agent = await api('agent@agency.test');
    expect((await agent.get(`/runs/${mine.id}/`)).status).toBe(404);
    expect((await agent.get(`/runs/${mine.id}/export/?format=xlsx`)).status).toBe(404);
    expect((await server.fetch('/api/reports/runs/')).status).toBe(401);
  });
});
