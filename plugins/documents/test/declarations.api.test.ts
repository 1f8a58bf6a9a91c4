import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import contactsPlugin from '@atrium/plugin-contacts/server';
import linesPlugin from '@atrium/plugin-lines/server';
import policiesPlugin from '@atrium/plugin-policies/server';
import rulesPlugin from '@atrium/plugin-rules/server';
import { issuanceService } from '../../policies/server/services.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import documentsPlugin from '../server/plugin.js';
import { STATE_FORM_NAME } from '../server/seed/demo-state-form.js';

/**
 * The automatic declarations: policies' get-dec-file-id asks documents' typed service, which renders
 * the line's dec page (settings) and merges the forms the form rules attach, once per revision —
 * the rules module's deployed form-inclusion rules where the line has them (the demo homeowners
 * project does), the settings' form rules otherwise (personal auto's project has none).
 */
// The listener of policies.policy.issued polls quickly here (2 s by default).
process.env.ATRIUM_DOCUMENTS_ISSUED_POLL_MS = '150';
let server: AccessTestServer;
let underwriter: Caller;
let author: Caller;
let adjuster: Caller;
beforeAll(async () => {
  server = await startAccessServer([contactsPlugin, linesPlugin, rulesPlugin, policiesPlugin, documentsPlugin]);
  underwriter = server.as('underwriter@atrium.test');
  author = server.as('author@atrium.test');
  adjuster = server.as('adjuster@atrium.test');
});
afterAll(async () => server?.close());

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-dec-'));
async function pdfText(caller: Caller, url: string): Promise<string> {
  const res = await caller.get(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
async function policies(product: string) {
  const list = await expectStatus(underwriter.get('/api/policies/policies/?page_size=100'), 200);
  return list.results.filter((p: { product_slug?: string; policy_type_name?: string }) =>
    JSON.stringify(p).includes(product),
  );
}

describe('declarations', () => {
  it('produces a homeowners declaration on the first request and answers the same file after', async () => {
    const [home] = await policies('Homeowners');
    expect(home).toBeDefined();
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${home.id}`), 200);
    expect(dec).toMatchObject({ declaration: true, label: 'Declaration', mime_type: 'application/pdf' });
    expect(dec.file_id).toEqual(expect.any(Number));
    expect(dec.url).toBe(`/api/documents/production-documents/${dec.file_id}/pdf/`);
    expect(dec.title).toMatch(/^Homeowners declarations page \(\d{4}-\d{2}-\d{2}\)$/);
    const again = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${home.id}`), 200);
    expect(again.file_id).toBe(dec.file_id);

    const text = await pdfText(underwriter, dec.url);
    expect(text).toContain(home.policy_number ?? home.number);
    // The named insured's address, from contacts' directory (the demo people live on Main St).
    expect(text.replace(/\s+/g, ' ')).toMatch(/Residence premises: \d+ Main St, [A-Za-z .]+, [A-Z]{2} \d{5}/);
    const doc = await expectStatus(underwriter.get(`/api/documents/production-documents/${dec.file_id}/`), 200);
    expect(doc).toMatchObject({ purpose: 'declarations', record: { type: 'policy', id: String(home.id) }, forms: [] });
    // The demo Maine form is limited to Maine; the seeded homeowners policies are in New York.
    expect(text).not.toContain('Homeowners Policy Disclosure');
    const rerender = await expectStatus(
      underwriter.post(`/api/documents/production-documents/${dec.file_id}/rerender/`, {}),
      200,
    );
    expect(rerender.identical).toBe(true);
  });

  it('prints an auto policy with the auto dec page, and says why there is no file for a line without one', async () => {
    const [auto, other] = await policies('Personal Auto');
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${auto.id}`), 200);
    expect(dec.title).toMatch(/^Personal auto declarations page \(\d{4}-\d{2}-\d{2}\)$/);
    const text = (await pdfText(underwriter, dec.url)).replace(/\s+/g, ' ');
    expect(text).toContain('Personal Auto Policy Declarations');
    expect(text).toContain(auto.policy_number ?? auto.number);
    expect(text).toMatch(/Mailing address: \d+ Main St, [A-Za-z .]+, [A-Z]{2} \d{5}/);
    // Coverages in words, never the rating item's identifier.
    expect(text).toContain('Bodily injury');
    expect(text).not.toContain('bodily_injury');

    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    const homeOnly = settings.declarations.filter((d: { line: string }) => d.line !== 'personal_auto');
    await expectStatus(
      author.put('/api/documents/settings/declarations/', { ...settings, declarations: homeOnly }),
      200,
    );
    try {
      const none = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${other.id}`), 200);
      expect(none).toMatchObject({
        file_id: null,
        url: null,
        detail: 'No declarations page is set for the line personal_auto.',
      });
    } finally {
      await expectStatus(author.put('/api/documents/settings/declarations/', settings), 200);
    }
  });

  it('merges the forms the settings attach after the dec page for a line without form rules, byte-identically on re-render', async () => {
    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    expect(settings.form_rules).toHaveLength(1);
    await expectStatus(adjuster.put('/api/documents/settings/declarations/', settings), 403);
    // Personal auto's rules project has no form-inclusion rules: the settings decide its forms.
    const forAuto = { ...settings, form_rules: [{ ...settings.form_rules[0], line: 'personal_auto', state: null }] };
    await expectStatus(author.put('/api/documents/settings/declarations/', forAuto), 200);

    const other = (await policies('Personal Auto'))[2];
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${other.id}`), 200);
    const doc = await expectStatus(underwriter.get(`/api/documents/production-documents/${dec.file_id}/`), 200);
    expect(doc.forms).toEqual([STATE_FORM_NAME]);
    expect(doc.page_count).toBe(2);
    const text = await pdfText(underwriter, dec.url);
    expect(text).toContain('Personal Auto Policy Declarations');
    expect(text).toContain('State of Maine');
    const number = other.policy_number ?? other.number;
    expect(text.split(number).length - 1).toBeGreaterThanOrEqual(2);
    const rerender = await expectStatus(
      underwriter.post(`/api/documents/production-documents/${dec.file_id}/rerender/`, {}),
      200,
    );
    expect(rerender).toMatchObject({ identical: true });
    await expectStatus(author.put('/api/documents/settings/declarations/', settings), 200);
  });

  it('makes the declarations when a policy is issued (policies.policy.issued), with the agency by name', async () => {
    const issued = await server.atrium.database.db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: 'Q-DEC-1',
        quoteNumber: 'QTE-DEC-1',
        productSlug: 'homeowners',
        productVersionId: null,
        state: 'ME',
        effectiveDate: '2026-02-01',
        expirationDate: '2027-02-01',
        namedInsured: { contactId: null, name: 'Ivy Issued' },
        agentContactId: 'CON-AGENT-ALEX',
        agencyContactId: 'CON-AGENCY-HARBOUR',
        premium: '812.40',
        worksheet: null,
        risks: null,
        billing: null,
        issuedBy: 'underwriter@atrium.test',
      }),
    );
    // Nobody asked for the file: the background listener made it from the outbox event.
    const list = `/api/documents/production-documents/?record_type=policy&record_id=${issued.policyId}`;
    let found: { count: number; results: any[] } = { count: 0, results: [] };
    for (let i = 0; i < 100 && found.count === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = await expectStatus(underwriter.get(list), 200);
    }
    expect(found.count).toBe(1);
    const [doc] = found.results;
    expect(doc).toMatchObject({ purpose: 'declarations', created_by: 'underwriter@atrium.test' });
    // A Maine homeowners policy's first term: the Maine form is attached — by the demo's
    // form-inclusion rule (in force from 2026-01-01), which says what the demo settings say.
    expect(doc.forms).toEqual([STATE_FORM_NAME]);
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?policy_id=${issued.policyId}`), 200);
    expect(dec.file_id).toBe(doc.id);
    const text = await pdfText(underwriter, dec.url);
    expect(text).toContain(issued.policyNumber);
    expect(text).toContain('$812.40');
    // The agency's own name, not its agent's.
    expect(text).toContain('Harbour Agency');
    expect(text).not.toMatch(/Agency:\s+Alex/);
  });

  it('previews a template with a real policy picked by number or insured, listing what it leaves blank', async () => {
    const picked = await expectStatus(author.get('/api/documents/data-points/records/?search=Ivy%20Issued'), 200);
    expect(picked, JSON.stringify(picked)).toMatchObject({ count: 1 });
    expect(picked.results[0]).toMatchObject({ type: 'policy', label: expect.stringMatching(/ · Ivy Issued$/) });
    const source = '#data.policy.number, #data.policy.insured.name, #formatCurrency(data.policy.premium)';
    const ivy = await expectStatus(
      author.post('/api/documents/previews/', { source, record: { type: 'policy', id: picked.results[0].id } }),
      200,
    );
    expect(ivy.svg).toContain('<svg');
    // Issued without a contact: no address to print, and the preview says so.
    expect(ivy.unresolved_paths).toEqual(['policy.insured.address']);
    const sample = await expectStatus(author.post('/api/documents/previews/', { source }), 200);
    expect(sample.unresolved_paths).toEqual([]);

    // A seeded policy, whose insured is a contact with an address (Ivy's is the newest).
    const home = (await policies('Homeowners')).find((p: unknown) => !JSON.stringify(p).includes('Ivy Issued'));
    const real = await expectStatus(
      author.post('/api/documents/previews/', { source, record: { type: 'policy', id: String(home.id) } }),
      200,
    );
    expect(real.unresolved_paths).not.toContain('policy.insured.address');
    const all = await expectStatus(author.get('/api/documents/data-points/records/?search='), 200);
    expect(all.count).toBeGreaterThan(1);

    const missing = await expectStatus(
      author.post('/api/documents/previews/', { source, record: { type: 'policy', id: '999999' } }),
      422,
    );
    expect(missing.errors[0].detail).toBe('Policy 999999 not found.');
    // Claims and quotes are asked of their modules, not installed here.
    const claim = await expectStatus(
      author.post('/api/documents/previews/', { source, record: { type: 'claim', id: '1' } }),
      422,
    );
    expect(claim.errors[0].detail).toBe('The claims module is not installed; preview with the sample.');
    const other = await expectStatus(
      author.post('/api/documents/previews/', { source, record: { type: 'invoice', id: '1' } }),
      400,
    );
    expect(JSON.stringify(other)).toContain("The record type must be 'policy', 'claim' or 'quote'.");
    // Readers do not preview source, so they do not pick records either.
    await expectStatus(adjuster.get('/api/documents/data-points/records/?search=HO'), 403);
  });

  it('checks the settings against the templates and forms they name', async () => {
    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    const letter = (await expectStatus(author.get('/api/documents/templates/'), 200)).data.find(
      (t: { attributes: { name: string } }) => t.attributes.name === 'Claim acknowledgement letter',
    );
    const claimTemplate = await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        declarations: [{ line: 'personal_auto', template_id: Number(letter.id) }],
      }),
      422,
    );
    expect(claimTemplate.errors[0].detail).toBe('"Claim acknowledgement letter" is written for a claim, not a policy.');
    const missing = await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        form_rules: [{ ...settings.form_rules[0], imported_document_id: 9999 }],
      }),
      422,
    );
    expect(missing.errors[0].detail).toBe('Imported document 9999 not found.');
    await expectStatus(
      author.put('/api/documents/settings/declarations/', {
        ...settings,
        declarations: [{ line: 'Home Owners', template_id: 1 }],
      }),
      400,
    );
  });
});

describe('form rules from the rules module', () => {
  let issued = 0;
  const issue = (policy: { state: string; effectiveDate: string; expirationDate: string; premium: string }) => {
    issued += 1;
    return server.atrium.database.db.transaction((tx) =>
      issuanceService().issuePolicy(tx, {
        quoteId: `Q-FORMS-${issued}`,
        quoteNumber: `QTE-FORMS-${issued}`,
        productSlug: 'homeowners',
        productVersionId: null,
        namedInsured: { contactId: null, name: `Forms Test ${issued}` },
        agentContactId: 'CON-AGENT-ALEX',
        agencyContactId: 'CON-AGENCY-HARBOUR',
        worksheet: null,
        risks: null,
        billing: null,
        issuedBy: 'underwriter@atrium.test',
        ...policy,
      }),
    );
  };
  const declaration = async (query: string) => {
    const dec = await expectStatus(underwriter.get(`/api/policies/get-dec-file-id/?${query}`), 200);
    const doc = await expectStatus(underwriter.get(`/api/documents/production-documents/${dec.file_id}/`), 200);
    return { forms: doc.forms, pages: doc.page_count, text: await pdfText(underwriter, dec.url) };
  };
  const job = async (started: { id: string }) => {
    for (let i = 0; i < 200; i += 1) {
      const found = await expectStatus(author.get(`/api/rules/job/${started.id}/`), 200);
      if (found.status === 'COMPLETED' || found.status === 'CANCELLED') return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Rules job ${started.id} did not finish.`);
  };
  const form = `'${STATE_FORM_NAME}'`;

  it('a deployed form rule changes the forms; a suppressed form and a renewal print none', async () => {
    // The rules decide for homeowners even where the settings say otherwise (here: every state).
    const settings = await expectStatus(author.get('/api/documents/settings/declarations/'), 200);
    const forAll = { ...settings, form_rules: [{ ...settings.form_rules[0], state: null }] };
    await expectStatus(author.put('/api/documents/settings/declarations/', forAll), 200);
    const march = await issue({
      state: 'NY',
      effectiveDate: '2026-03-01',
      expirationDate: '2027-03-01',
      premium: '900.00',
    });
    expect((await declaration(`policy_id=${march.policyId}`)).forms).toEqual([]);
    await expectStatus(author.put('/api/documents/settings/declarations/', settings), 200);

    // The author attaches the disclosure to every homeowners policy from July (not printed on
    // renewals), suppressed above a premium of 5,000, then commits, deploys and publishes July.
    const project = (await expectStatus(author.get('/api/rules/projects/'), 200)).results.find(
      (p: { name: string }) => p.name === 'homeowners_rules',
    );
    const july = project.effective_dates.find((d: { status: string }) => d.status === 'draft');
    const components = await expectStatus(author.get(`/api/rules/brl-components/?project_id=${project.id}`), 200);
    const maine = components.results.find((c: { name: string }) => c.name === 'maine_disclosure');
    const everywhere = `rule maine_disclosure 'Disclosure on every homeowners policy'\n  category form-inclusion\n  applies to home\nwhen\n  always\nthen\n  attach form ${form}\nend\n`;
    await expectStatus(author.put(`/api/rules/brl-components/${maine.id}/`, { body: everywhere }), 200);
    await expectStatus(
      author.post('/api/rules/brl-components/', {
        package_id: maine.package,
        name: 'large_premium_no_disclosure',
        folder: 'forms',
        component_type: 'rule',
        body: `rule large_premium_no_disclosure 'No disclosure printed above 5,000'\n  category form-inclusion\n  applies to home\n  priority 10\nwhen\n  it is true that data_point('policy.premium') > 5000\nthen\n  attach form ${form} suppress printing\nend\n`,
      }),
      201,
    );
    const base = `/api/rules/projects/${project.id}`;
    const committed = await job(await expectStatus(author.post(`${base}/build/async-commit/${july.id}/`, {}), 202));
    expect(committed, JSON.stringify(committed.result)).toMatchObject({ resultStatus: 'SUCCESS' });
    const deployed = await job(
      await expectStatus(author.post(`${base}/build/async-deploy/${july.id}/${committed.result.commitId}/`, {}), 202),
    );
    expect(deployed.resultStatus).toBe('SUCCESS');
    await expectStatus(author.put(`${base}/effective-dates/${july.id}/published/`, {}), 200);

    // A New York policy from August now carries the disclosure after its dec page.
    const august = await issue({
      state: 'NY',
      effectiveDate: '2026-08-01',
      expirationDate: '2027-08-01',
      premium: '900.00',
    });
    const withForm = await declaration(`policy_id=${august.policyId}`);
    expect(withForm).toMatchObject({ forms: [STATE_FORM_NAME], pages: 2 });
    expect(withForm.text).toContain('State of Maine');
    // Above 5,000 the higher-priority rule suppresses it: attached, never printed.
    const large = await issue({
      state: 'NY',
      effectiveDate: '2026-08-01',
      expirationDate: '2027-08-01',
      premium: '9000.00',
    });
    const suppressed = await declaration(`policy_id=${large.policyId}`);
    expect(suppressed).toMatchObject({ forms: [], pages: 1 });
    expect(suppressed.text).not.toContain('State of Maine');
    // The renewal of the August policy: the rule does not say "always print on renewal".
    const started = await expectStatus(
      underwriter.post('/api/policies/policy-transactions/', {
        policy: Number(august.policyId),
        type: 'renewal',
        effective_date: '2027-08-01',
      }),
      202,
    );
    let renewal = { status: 'pending' } as { status: string };
    for (let i = 0; i < 200 && renewal.status !== 'completed' && renewal.status !== 'failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      renewal = await expectStatus(underwriter.get(`/api/policies/policy-transactions/${started.id}/`), 200);
    }
    expect(renewal.status, JSON.stringify(renewal)).toBe('completed');
    const [renewed] = (
      await expectStatus(underwriter.get(`/api/policies/revisions/?filter[policy_id]=${august.policyId}`), 200)
    ).results;
    expect(await declaration(`revision_id=${renewed.id}`)).toMatchObject({ forms: [], pages: 1 });
  });
});
