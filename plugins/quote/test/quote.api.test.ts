import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import { abandonStaleQuotes } from '../server/abandon.js';
import quotePlugin from '../server/plugin.js';

type Json = Record<string, any>;

/** The quote API over HTTP as the demo agent, agency and underwriter, on the demo lines and rules. */
describe('quote', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: [identityPlugin, accessPlugin, contactsPlugin, linesPlugin, rulesPlugin, policiesPlugin, quotePlugin],
    });
  });
  afterAll(() => server?.close());

  const api = async (user: string) => {
    const call = await as(server, user, { base: '/api' });
    const json = async (method: string, path: string, body?: unknown) => {
      const response = await call(method, path, body);
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    return {
      get: (path: string) => json('GET', path),
      post: (path: string, body: unknown = {}) => json('POST', path, body),
      put: (path: string, body: unknown) => json('PUT', path, body),
      delete: (path: string) => json('DELETE', path),
    };
  };

  const homeQuote = async (user: string, extra: Json = {}) => {
    const caller = await api(user);
    const created = await caller.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2026-03-01',
      named_insured: { name: 'Pat Homeowner' },
      // Quoting permissions are per state: the demo agent's are in NY, IL and TX.
      state: 'TX',
      ...extra,
    });
    expect(created.status).toBe(201);
    return created.body;
  };

  it('lists quotable products and finds the effective date, or says it cannot', async () => {
    const agent = await api('agent@agency.test');
    const products = await agent.get('/quote/quotable-products/?effective_before=2026-03-01');
    expect(products.status).toBe(200);
    expect(products.body.results.map((p: Json) => p.name).sort()).toEqual(['homeowners', 'personal_auto']);
    expect((await agent.get('/quote/quotable-products/?effective_before=2020-01-01')).body.results).toEqual([]);
    const found = await agent.post('/v2/lines/find_effective_date', { date: '03/15/2026', product: 'homeowners' });
    expect(found.body).toMatchObject({ success: true, effective_date: '2026-01-01' });
    const missing = await agent.post('/v2/lines/find_effective_date', { date: '2020-01-01', product: 'homeowners' });
    expect(missing.body.success).toBe(false);
    expect(missing.body.messages[0]).toContain('Cannot find effective date');
    expect(
      (await agent.post('/v2/lines/find_effective_date', { date: '2026-02-30', product: 'homeowners' })).status,
    ).toBe(400);
  });

  it('keeps agents to their own and their agency’s quotes', async () => {
    const mine = await homeQuote('agent@agency.test');
    expect(mine).toMatchObject({
      status: 'In Progress',
      agent_contact_id: 'CON-AGENT-ALEX',
      agency_contact_id: 'CON-AGENCY-HARBOUR',
    });
    expect(mine.quote_number).toMatch(/^Q-\d+$/);
    expect(mine.risk_quote.risk_state.items.map((i: Json) => i.name)).toEqual(['dwelling', 'personal_liability']);
    const other = await homeQuote('underwriter@atrium.test', { agent_contact_id: 'CON-AGENT-NOOR' });
    expect(other.agency_contact_id).toBe('CON-AGENCY-NORTHGATE');
    const agent = await api('agent@agency.test');
    expect((await agent.get(`/quote/${other.quote_number}/`)).status).toBe(404);
    expect((await agent.post(`/quote/${other.quote_number}/rate/`)).status).toBe(404);
    const list = await agent.get('/quote/?page[size]=200&include=agents,named_insureds');
    const numbers = list.body.data.map((q: Json) => q.quote_number);
    expect(numbers).toContain(mine.quote_number);
    expect(numbers).not.toContain(other.quote_number);
    expect(list.body.data.find((q: Json) => q.quote_number === mine.quote_number).agents[0].name).toContain('Alex');
    const agency = await api('agency@agency.test');
    expect((await agency.get(`/quote/${mine.quote_number}/`)).status).toBe(200);
    expect((await agency.get(`/quote/${other.quote_number}/`)).status).toBe(404);
    const underwriter = await api('underwriter@atrium.test');
    const searched = await underwriter.get(`/quote/?search=${mine.quote_number}&filter[status]=In%20Progress`);
    expect(searched.body.data.map((q: Json) => q.quote_number)).toEqual([mine.quote_number]);
    expect((await agent.get('/quote/?include=wizards')).status).toBe(400);
  });

  it('walks risks with the rules’ UI controls, rates in decimals, submits and is approved; bind waits on open issues', async () => {
    const agent = await api('agent@agency.test');
    const q = await homeQuote('agent@agency.test');
    const root = q.risk_quote.id;
    // A page cannot be left with required answers missing; the message names the field.
    const incomplete = await agent.put(`/quote/risks/${root}/?page_name=home&target_page_name=scheduled-article`, {
      risk_state: { field_answers: { zip: '78701' } },
    });
    expect(incomplete.status).toBe(400);
    expect(JSON.stringify(incomplete.body)).toContain('Protection class is required.');
    const wrongType = await agent.put(`/quote/risks/${root}/`, {
      risk_state: { field_answers: { year_built: 'old' } },
    });
    expect(wrongType.status).toBe(400);
    const saved = await agent.put(
      `/quote/risks/${root}/?page_name=home&target_page_name=scheduled-article&rules_action=evaluate`,
      {
        risk_state: {
          field_answers: {
            zip: '78701',
            construction: 'masonry',
            protection_class: 9,
            year_built: 1990,
            roof_year: 1995,
          },
        },
      },
    );
    expect(saved.status).toBe(200);
    // Protection class 9: frame construction is taken away by a UI-control rule.
    const construction = saved.body.rules.actions.find((a: Json) => a.name === 'construction');
    expect(construction.optionsBlacklist).toEqual(['frame']);
    const frame = await agent.post(`/quote/risks/${root}/fields/construction/validate-answer/`, { answer: 'frame' });
    expect(frame.body).toEqual({ valid: false, message: 'frame is not available.' });
    const year = await agent.post(`/quote/risks/${root}/fields/year_built/validate-answer/`, { answer: 1800 });
    expect(year.body).toEqual({ valid: false, message: 'This year is too early.' });
    // A scheduled article over 25,000 must say whether it is in a vault.
    const article = await agent.post('/quote/risks/?rules_action=evaluate', {
      quote: q.quote_number,
      parent_risk_quote: root,
      risk_type_name: 'scheduled_article',
    });
    expect(article.status).toBe(201);
    const valuable = await agent.put(`/quote/risks/${article.body.id}/?rules_action=evaluate`, {
      risk_state: { field_answers: { category: 'jewelry', appraised_value: 30000, in_vault: null } },
    });
    const vault = valuable.body.rules.actions.find(
      (a: Json) => a.name === `scheduled_article#${article.body.id}.in_vault`,
    );
    expect(vault).toMatchObject({ visible: true, mandatory: true });
    const finalize = await agent.post(`/quote/risks/${root}/finalize/`);
    expect(finalize.body.valid).toBe(false);
    expect(finalize.body.errors.map((e: Json) => e.detail)).toEqual(['Kept in a vault is required.']);
    await agent.put(`/quote/risks/${article.body.id}/`, { risk_state: { field_answers: { in_vault: true } } });
    expect((await agent.post(`/quote/${q.quote_number}/submit/`)).status).toBe(409);

    const rated = await agent.post(`/quote/${q.quote_number}/rate/`);
    expect(rated.status).toBe(200);
    expect(rated.body.premium.term).toMatch(/^\d+\.\d{2}$/);
    expect(rated.body.rating.worksheet).toBeTruthy();
    // The 1995 roof is older than 25 years in 2026: an open referral blocking bind.
    expect(rated.body.underwriting_issues).toMatchObject([
      { code: 'HO-ROOF', blocking: 'bind', status: 'open', authority: 'Underwriter' },
    ]);
    const submitted = await agent.post(`/quote/${q.quote_number}/submit/`);
    expect(submitted.body.status).toBe('In Review');
    expect(submitted.body.alerts.map((a: Json) => a.kind)).toEqual(['review']);
    // Agents see no underwriting triggers and may not run them.
    expect(
      (await agent.get(`/quote/${q.quote_number}/status/triggers/`)).body.results.map((t: Json) => t.name),
    ).toEqual(['abandon']);
    expect((await agent.post(`/quote/${q.quote_number}/status/triggers/approve/`)).status).toBe(403);
    const underwriter = await api('underwriter@atrium.test');
    const triggers = await underwriter.get(`/quote/${q.quote_number}/status/triggers/`);
    expect(triggers.body.results.map((t: Json) => t.name)).toEqual(['approve', 'decline', 'abandon']);
    expect((await underwriter.post(`/quote/${q.quote_number}/status/triggers/decline/`, {})).status).toBe(400);
    const approved = await underwriter.post(`/quote/${q.quote_number}/status/triggers/approve/`, {
      reason: 'Roof inspected.',
    });
    expect(approved.body.status).toBe('Approved');
    expect(approved.body.underwriting_issues[0]).toMatchObject({
      status: 'approved',
      resolved_by: 'underwriter@atrium.test',
    });
    expect(approved.body.alerts.map((a: Json) => a.kind)).toEqual(['approved']);
    const alertId = approved.body.alerts[0].id;
    expect((await agent.delete(`/quote/${q.quote_number}/alerts/${alertId}/`)).status).toBe(204);

    // An edit after approval: back to In Progress, the rating stale.
    const edited = await agent.put(`/quote/risks/${root}/`, { risk_state: { field_answers: { protection_class: 5 } } });
    expect(edited.status).toBe(200);
    const reloaded = await agent.get(`/quote/${q.quote_number}/`);
    expect(reloaded.body).toMatchObject({ status: 'In Progress', rating_stale: true });
  });

  /** A homeowners quote with complete answers (a roof from `roofYear`), rated once. */
  const ratedHome = async (user: string, roofYear: number, name = 'Rae Referral') => {
    const caller = await api(user);
    const q = await homeQuote(user, { named_insured: { name } });
    const answers = {
      zip: '78701',
      construction: 'masonry',
      protection_class: 4,
      year_built: 2001,
      roof_year: roofYear,
    };
    expect(
      (await caller.put(`/quote/risks/${q.risk_quote.id}/`, { risk_state: { field_answers: answers } })).status,
    ).toBe(200);
    const rated = await caller.post(`/quote/${q.quote_number}/rate/`);
    expect(rated.status).toBe(200);
    return { caller, number: q.quote_number as string, root: q.risk_quote.id as number, rated: rated.body };
  };

  it('queues referrals for underwriters, who clear each issue with a reason; agents may not', async () => {
    const { caller: agent, number } = await ratedHome('agent@agency.test', 1990);
    expect((await agent.post(`/quote/${number}/submit/`)).body.status).toBe('In Review');
    const underwriter = await api('underwriter@atrium.test');
    const queue = await underwriter.get(`/quote/review-queue/?search=${number}`);
    expect(queue.status).toBe(200);
    expect(queue.body.meta.count).toBe(1);
    const [referral] = queue.body.data;
    expect(referral).toMatchObject({ quote_number: number, status: 'In Review' });
    expect(referral.underwriting_issues).toMatchObject([{ code: 'HO-ROOF', status: 'open', authority: 'Underwriter' }]);
    // The demo referrals wait in the queue too, oldest first.
    const all = await underwriter.get('/quote/review-queue/?page[size]=100');
    expect(all.body.data.map((q: Json) => q.quote_number)).toEqual(expect.arrayContaining(['Q-900002', number]));
    expect(all.body.data.every((q: Json) => q.status === 'In Review')).toBe(true);
    const issue = referral.underwriting_issues[0].id;
    // Only who may clear it: agents hold no `underwrite`, and a reason is required.
    expect((await agent.get('/quote/review-queue/')).status).toBe(403);
    expect(
      (await agent.post(`/quote/${number}/underwriting-issues/${issue}/approve/`, { reason: 'Fine.' })).status,
    ).toBe(403);
    const noReason = await underwriter.post(`/quote/${number}/underwriting-issues/${issue}/approve/`, {});
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body)).toContain('Give a reason.');
    const cleared = await underwriter.post(`/quote/${number}/underwriting-issues/${issue}/approve/`, {
      reason: 'Roof replaced in 2024, invoice on file.',
    });
    expect(cleared.status).toBe(200);
    // The last open referral approved: the quote is Approved and leaves the queue.
    expect(cleared.body).toMatchObject({ status: 'Approved' });
    expect(cleared.body.underwriting_issues[0]).toMatchObject({
      status: 'approved',
      resolved_by: 'underwriter@atrium.test',
      reason: 'Roof replaced in 2024, invoice on file.',
    });
    expect(
      (await underwriter.post(`/quote/${number}/underwriting-issues/${issue}/reject/`, { reason: 'Changed my mind.' }))
        .status,
    ).toBe(409);
    expect((await underwriter.get(`/quote/review-queue/?search=${number}`)).body.meta.count).toBe(0);

    // Declining a referral declines the quote, with the reason in its history.
    const second = await ratedHome('agent@agency.test', 1985, 'Dee Declined');
    await second.caller.post(`/quote/${second.number}/submit/`);
    const [open] = (await underwriter.get(`/quote/${second.number}/`)).body.underwriting_issues;
    const declined = await underwriter.post(`/quote/${second.number}/underwriting-issues/${open.id}/reject/`, {
      reason: 'Roof beyond repair.',
    });
    expect(declined.body).toMatchObject({ status: 'Declined' });
    expect(declined.body.alerts.map((a: Json) => a.kind)).toEqual(['declined']);
    expect(
      (await underwriter.post(`/quote/${second.number}/underwriting-issues/${open.id}/approve/`, { reason: 'x' }))
        .status,
    ).toBe(409);
  });

  it('re-rates with the difference: premium and each coverage before and after, the factors that moved', async () => {
    const { caller: agent, number, root, rated } = await ratedHome('agent@agency.test', 2015, 'Ray Rerate');
    // A first rating has nothing to compare with.
    expect(rated.rating.difference).toMatchObject({ previous: null, premium_change: null, coverages: [] });
    const first = rated.premium.term as string;
    // A higher Coverage A limit and a worse protection class.
    await agent.put(`/quote/risks/${root}/`, {
      risk_state: {
        field_answers: { protection_class: 8 },
        items: [
          { name: 'dwelling', limit: '400000', deductible: '1000' },
          { name: 'personal_liability', limit: '300000' },
        ],
      },
    });
    const again = await agent.post(`/quote/${number}/rate/`);
    expect(again.status).toBe(200);
    const difference = again.body.rating.difference;
    const second = again.body.premium.term as string;
    expect(Number(second)).toBeGreaterThan(Number(first));
    expect(difference.previous.premium).toBe(first);
    expect(difference.current.premium).toBe(second);
    expect(difference.premium_change).toBe((Number(second) - Number(first)).toFixed(2));
    const dwelling = difference.coverages.find((c: Json) => c.name === 'dwelling_premium');
    expect(dwelling).toMatchObject({ risk_label: 'Home', label: 'Dwelling premium' });
    expect(Number(dwelling.after)).toBeGreaterThan(Number(dwelling.before));
    expect(dwelling.change).toBe((Number(dwelling.after) - Number(dwelling.before)).toFixed(2));
    const liability = difference.coverages.find((c: Json) => c.name === 'liability_premium');
    expect(liability.before).toBe(liability.after);
    expect(liability.change).toBe('0.00');
    expect(difference.factors.map((f: Json) => f.name)).toEqual(
      expect.arrayContaining(['coverage_a', 'coverage_a_factor', 'key_factor']),
    );
    expect(difference.factors.map((f: Json) => f.name)).not.toContain('base_rate');
    expect(difference.inputs.join('\n')).toContain('protection_class');
    // Kept: the quote answers the same difference; rating again unchanged keeps it.
    expect((await agent.get(`/quote/${number}/rating/difference/`)).body).toEqual(difference);
    const unchanged = await agent.post(`/quote/${number}/rate/`);
    expect(unchanged.body.rating.difference.previous.premium).toBe(first);
    const other = await api('agency@agency.test');
    expect((await other.get(`/quote/${number}/rating/difference/`)).status).toBe(200);
  });

  it('keeps a second agency’s agent to their own agency’s quotes on every read path', async () => {
    // Noor, an agent of the Northgate agency, as an administrator would add them.
    const admin = await as(server, 'admin@atrium.test', {
      base: '/api/identity/user-management',
      mediaType: 'jsonapi',
    });
    const created = await admin.post('/users', {
      data: {
        type: 'user',
        attributes: {
          username: 'noor@northgate.test',
          name: 'Noor Producer',
          contact_id: 'CON-AGENT-NOOR',
          agency_id: 'CON-AGENCY-NORTHGATE',
          temporary_password: 'Temporary!pass1',
        },
      },
    });
    expect(created.status).toBe(201);
    const roles = await as(server, 'admin@atrium.test', { base: '/api/access' });
    const assigned = await roles.post('/role-user-name-assignments', {
      user_name: 'noor@northgate.test',
      role: 'Agent',
    });
    expect(assigned.status).toBeLessThan(300);
    const signIn = (await (
      await server.fetch('/api/identity/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'noor@northgate.test', password: 'Temporary!pass1' }),
      })
    ).json()) as Json;
    const answered = await server.fetch('/api/identity/challenges/new-password', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'noor@northgate.test', session: signIn.session, new_password: 'Atrium!demo1' }),
    });
    expect(answered.status).toBe(200);

    const alex = await ratedHome('agent@agency.test', 1990, 'Harbour Insured Person');
    await alex.caller.post(`/quote/${alex.number}/submit/`);
    const noor = await api('noor@northgate.test');
    // Noor quotes in CA only (the contacts demo's quoting permissions).
    const own = await homeQuote('noor@northgate.test', {
      named_insured: { name: 'Northgate Insured Person' },
      state: 'CA',
    });
    expect(own).toMatchObject({ agent_contact_id: 'CON-AGENT-NOOR', agency_contact_id: 'CON-AGENCY-NORTHGATE' });

    // Lists (with include=, filters and search), quick search: only Northgate's quotes.
    const list = await noor.get('/quote/?page[size]=100&include=agents,agency,named_insureds,owner');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBe(list.body.meta.count);
    expect(list.body.data.map((q: Json) => q.quote_number)).toContain(own.quote_number);
    expect(list.body.data.every((q: Json) => q.agency_contact_id === 'CON-AGENCY-NORTHGATE')).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain('Harbour');
    expect(JSON.stringify(list.body)).not.toContain('CON-AGENT-ALEX');
    for (const query of [
      `search=${alex.number}`,
      'search=Harbour%20Insured',
      'filter[agent]=CON-AGENT-ALEX',
      'filter[status]=In%20Review',
      `filter[owner]=agent@agency.test`,
    ]) {
      const found = await noor.get(`/quote/?${query}&include=agents`);
      expect(found.body.data.map((q: Json) => q.quote_number)).not.toContain(alex.number);
      expect(found.body.data.every((q: Json) => q.agency_contact_id === 'CON-AGENCY-NORTHGATE')).toBe(true);
    }
    expect((await noor.get(`/quote/quick-search/?q=${alex.number}`)).body.results).toEqual([]);
    expect(
      (await noor.get('/quote/quick-search/?q=Insured%20Person')).body.results.map((q: Json) => q.quote_number),
    ).toEqual([own.quote_number]);
    // One quote and everything under it: 404, as for a quote that is not there.
    for (const path of [
      `/quote/${alex.number}/`,
      `/quote/${alex.number}/?include=agents`,
      `/quote/${alex.number}/flow/`,
      `/quote/${alex.number}/rules/`,
      `/quote/${alex.number}/rating/difference/`,
      `/quote/${alex.number}/status/triggers/`,
      `/quote/${alex.number}/billing/`,
      `/quote/${alex.number}/billing/config/`,
      `/quote/risks/${alex.root}/`,
    ]) {
      expect([path, (await noor.get(path)).status]).toEqual([path, 404]);
    }
    expect((await noor.post(`/quote/risks/${alex.root}/evaluate/`)).status).toBe(404);
    expect((await noor.post(`/quote/risks/${alex.root}/fields/zip/validate-answer/`, { answer: '1' })).status).toBe(
      404,
    );
    expect((await noor.get('/quote/review-queue/')).status).toBe(403);
    // And the other way round: Alex and the Harbour agency do not see Noor's quote.
    expect((await alex.caller.get(`/quote/${own.quote_number}/`)).status).toBe(404);
    expect((await (await api('agency@agency.test')).get(`/quote/?search=${own.quote_number}`)).body.data).toEqual([]);
  });

  it('answers 400 with the field for bad input and 404 for what is not there', async () => {
    const agent = await api('agent@agency.test');
    const noDate = await agent.post('/quote/', {
      product_name: 'homeowners',
      effective_date: 'soon',
      named_insured: { name: 'X' },
    });
    expect(noDate.status).toBe(400);
    const noVersion = await agent.post('/quote/', {
      product_name: 'homeowners',
      effective_date: '2020-01-01',
      named_insured: { name: 'X' },
    });
    expect(noVersion.status).toBe(400);
    expect(JSON.stringify(noVersion.body)).toContain('Cannot find effective date');
    expect((await agent.get('/quote/Q-999999999/')).status).toBe(404);
    expect((await agent.get('/quote/risks/999999999/')).status).toBe(404);
    const adjuster = await api('adjuster@atrium.test');
    expect((await adjuster.get('/quote/')).status).toBe(403);
  });

  it('abandons open quotes idle longer than the quote/abandon-after-days setting, nightly', async () => {
    const agent = await api('agent@agency.test');
    const underwriter = await api('underwriter@atrium.test');
    expect((await agent.get('/quote/settings/')).status).toBe(403);
    expect((await underwriter.get('/quote/settings/')).body).toEqual({ abandon_after_days: 30 });
    expect((await underwriter.put('/quote/settings/', { abandon_after_days: 0 })).status).toBe(400);
    expect((await agent.put('/quote/settings/', { abandon_after_days: 5 })).status).toBe(403);
    expect((await underwriter.put('/quote/settings/', { abandon_after_days: 10 })).body).toEqual({
      abandon_after_days: 10,
    });
    const idle = await homeQuote('agent@agency.test', { named_insured: { name: 'Ida Idle' } });
    const fresh = await homeQuote('agent@agency.test', { named_insured: { name: 'Fay Fresh' } });
    const pool = server.atrium.database.pool;
    await pool.query(`update quote.quote set updated_at = now() - interval '11 days' where number = $1`, [
      idle.quote_number,
    ]);
    // Creating quotes asked the queue for tonight's sweep.
    const { rows: queued } = await pool.query(`select start_after from pgboss.job where name = 'quote.abandon-stale'`);
    expect(queued.length).toBe(1);
    expect(new Date(queued[0].start_after).getUTCHours()).toBe(3);

    const abandoned = await abandonStaleQuotes(server.atrium.database.db, new Date());
    expect(abandoned).toContain(idle.quote_number);
    expect(abandoned).not.toContain(fresh.quote_number);
    const after = await agent.get(`/quote/${idle.quote_number}/`);
    expect(after.body.status).toBe('Abandoned');
    expect((await agent.get(`/quote/${fresh.quote_number}/`)).body.status).toBe('In Progress');
    const { rows: history } = await pool.query(
      `select trigger, from_status, changed_by, reason from quote.status_history h join quote.quote q on q.id = h.quote_id
       where q.number = $1 and h.to_status = 'Abandoned'`,
      [idle.quote_number],
    );
    expect(history).toEqual([
      { trigger: 'abandon', from_status: 'In Progress', changed_by: 'system', reason: 'No activity for 10 days.' },
    ]);
    expect(
      (await agent.get(`/quote/${idle.quote_number}/status/triggers/`)).body.results.map((t: Json) => t.name),
    ).toEqual(['reopen']);
  });
});
