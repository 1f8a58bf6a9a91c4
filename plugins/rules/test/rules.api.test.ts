import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer, type AccessTestServer, type Caller } from '../../access/test/access-test-server.js';
import { defineServerPlugin, z } from '@atrium/sdk/server';
import linesPlugin from '../../lines/server/plugin.js';
import rulesPlugin from '../server/plugin.js';
import { RULES_RUNTIME } from '../shared/runtime-service.js';
import { count, eq } from 'drizzle-orm';
import { cancelJob, runBuildJob } from '../server/jobs.js';
import { commit as commitTable, deployment as deploymentTable, job as jobTable } from '../server/tables.js';

/** A module calling the rules runtime in process, the way quote does (docs/rules.md, "RULES_RUNTIME"). */
const probe = { resource: 'rules-probe:issues', action: 'read' };
const consumerPlugin = defineServerPlugin({
  id: 'rules-probe',
  deps: [RULES_RUNTIME],
  permissions: [{ ...probe, description: 'Test probe of the rules runtime.' }],
  routes(router, context) {
    // A job as the queue holds it before a worker takes it (the row, not sent), so that a test can
    // cancel it first; then a worker's run of it, optionally cancelled once its export file is written
    // or once its transaction has begun (the work then done inside it is recorded: `inserted`).
    router.post(
      '/jobs/',
      {
        config: { access: probe },
        schema: {
          body: z.object({
            kind: z.enum(['export', 'commit', 'deploy']),
            project: z.number(),
            params: z.record(z.string(), z.unknown()).optional(),
          }),
        },
      },
      async (request) => {
        const id = crypto.randomUUID();
        await context.db.insert(jobTable).values({
          id,
          projectId: request.body.project,
          kind: request.body.kind,
          params: request.body.params ?? {},
          createdBy: 'author@atrium.test',
        });
        return { id };
      },
    );
    router.post(
      '/jobs/:id/run/',
      {
        config: { access: probe },
        schema: {
          params: z.object({ id: z.string() }),
          body: z.object({ cancelAfterWrite: z.boolean(), cancelInTransaction: z.boolean().optional() }),
        },
      },
      async (request) => {
        const cancel = () => cancelJob(context.db, request.params.id, 'author@atrium.test');
        const written: string[] = [];
        const storage = Object.assign(Object.create(context.storage) as typeof context.storage, {
          put: async (...args: Parameters<typeof context.storage.put>) => {
            const stored = await context.storage.put(...args);
            written.push(args[0]);
            if (request.body.cancelAfterWrite) await cancel();
            return stored;
          },
        });
        // The cancel lands once the job's transaction has begun; everything the job then writes in
        // it (recorded by table) happens after the cancel and must be rolled back at its end. (On
        // PGlite's one connection a cancel from outside cannot arrive while the transaction is open.)
        const inserted: string[] = [];
        const recording = <T extends object>(tx: T): T =>
          new Proxy(tx, {
            get(target, key) {
              const value = Reflect.get(target, key, target) as unknown;
              if (key === 'insert')
                return (table: object) => {
                  inserted.push(table === commitTable ? 'commit' : table === deploymentTable ? 'deployment' : 'other');
                  return (value as (t: object) => unknown).call(target, table);
                };
              return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
            },
          });
        const db = Object.assign(Object.create(context.db) as typeof context.db, {
          transaction: async (work: (tx: unknown) => Promise<unknown>) => {
            if (request.body.cancelInTransaction) await cancel();
            return context.db.transaction((tx) => work(recording(tx)));
          },
        });
        await runBuildJob(Object.assign(Object.create(context) as typeof context, { storage, db }), request.params.id);
        return {
          written,
          inserted,
          kept: await Promise.all(written.map(async (key) => (await context.storage.head(key)) !== null)),
        };
      },
    );
    router.get(
      '/rows/:project/',
      { config: { access: probe }, schema: { params: z.object({ project: z.coerce.number() }) } },
      async (request) => {
        const of = async (table: typeof commitTable | typeof deploymentTable) =>
          (await context.db.select({ n: count() }).from(table).where(eq(table.projectId, request.params.project)))[0]!
            .n;
        return { commits: await of(commitTable), deployments: await of(deploymentTable) };
      },
    );
    router.post(
      '/issues/',
      {
        config: { access: probe },
        schema: { body: z.object({ at: z.enum(['rate', 'submit', 'bind']).optional(), risk: z.any() }) },
      },
      (request) =>
        context.db.transaction((tx) =>
          context.service(RULES_RUNTIME).underwritingIssues(tx, {
            product: 'personal_auto',
            asOf: '2026-03-01',
            user: { roles: ['Underwriter'] },
            risk: request.body.risk,
            ...(request.body.at ? { at: request.body.at } : {}),
          }),
        ),
    );
  },
});

let server: AccessTestServer;
let author: Caller;
let underwriter: Caller;
let agent: Caller;
let adjuster: Caller;
beforeAll(async () => {
  server = await startAccessServer([linesPlugin, rulesPlugin, consumerPlugin]);
  author = server.as('author@atrium.test');
  underwriter = server.as('underwriter@atrium.test');
  agent = server.as('agent@agency.test');
  adjuster = server.as('adjuster@atrium.test');
});
afterAll(async () => server?.close());

async function expectStatus<T = any>(response: Response | Promise<Response>, status: number): Promise<T> {
  const res = await response;
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected HTTP ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Polls a job the way the SDK's job runner does, until it is neither NEW nor IN_PROGRESS. */
async function finished(caller: Caller, started: { id: string; status: string; progress: string }) {
  expect(started).toMatchObject({ status: 'NEW', progress: '0.00' });
  for (let i = 0; i < 300; i++) {
    const job = await expectStatus(caller.get(`/api/rules/job/${started.id}/`), 200);
    if (job.status !== 'NEW' && job.status !== 'IN_PROGRESS') return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${started.id} did not finish`);
}

const autoRisk = (usage: string) => ({
  id: 'p1',
  type: 'policy',
  field_answers: { policy_year: 2026 },
  children: [
    { id: 'v1', type: 'vehicle', field_answers: { vin: 'VIN1', model_year: 2019, usage } },
    { id: 'd1', type: 'driver', field_answers: { age: 19, violations: 0, at_fault_accidents: 0 } },
  ],
});
const uiControls = (
  caller: Caller,
  date: string,
  usage = 'business',
  names = ['vehicle#v1.roadside', 'vehicle#v1.vin', 'vehicle#v1.comprehensive'],
) =>
  caller.post('/api/rules/execution/ui-controls/', {
    data: {
      actions: names.map((name) => ({ name })),
      context: {
        viewId: 'vehicles',
        user: { roles: ['Administrator'] },
        viewModel: { product: 'personal_auto', date, risk: autoRisk(usage) },
        extra: {},
      },
    },
  });

let autoProject: any;
const homeowners = async () =>
  (await expectStatus(author.get('/api/rules/projects/'), 200)).results.find((p: any) => p.name === 'homeowners_rules');
describe('rules projects', () => {
  it('lists the demo projects with their effective dates; only rules authors and administrators read them', async () => {
    const projects = await expectStatus(author.get('/api/rules/projects/'), 200);
    expect(projects.results.map((p: any) => [p.name, p.product])).toEqual([
      ['homeowners_rules', 'homeowners'],
      ['personal_auto_rules', 'personal_auto'],
    ]);
    autoProject = projects.results[1];
    expect(autoProject.effective_dates.map((d: any) => [d.effective_date, d.status])).toEqual([
      ['2026-01-01', 'published'],
      ['2026-07-01', 'draft'],
    ]);
    await expectStatus(server.admin.get(`/api/rules/projects/${autoProject.id}/`), 200);
    await expectStatus(underwriter.get('/api/rules/projects/'), 403);
    await expectStatus(agent.get('/api/rules/brl-components/'), 403);
    await expectStatus(author.get('/api/rules/projects/999999/'), 404);
  });

  it('the demo projects validate against lines and their rule tests pass', async () => {
    for (const p of (await expectStatus(author.get('/api/rules/projects/'), 200)).results) {
      const validated = await finished(
        author,
        await expectStatus(author.post(`/api/rules/projects/${p.id}/build/validate/`, {}), 202),
      );
      expect(validated).toMatchObject({
        kind: 'validate',
        status: 'COMPLETED',
        resultStatus: 'SUCCESS',
        progress: '100.00',
      });
      expect(validated.result.problems).toEqual([]);
      const tested = await finished(
        author,
        await expectStatus(author.post(`/api/rules/projects/${p.id}/build/async-test/`, {}), 202),
      );
      expect(tested.resultStatus).toBe('SUCCESS');
      // Two tests per project; homeowners adds two of its form-inclusion rule.
      expect(tested.result).toHaveLength(p.name === 'homeowners_rules' ? 4 : 2);
      for (const t of tested.result) expect(t).toMatchObject({ testPassed: true, differences: [] });
    }
  });

  it('lists the tests whose latest run failed, until a later run passes them', async () => {
    const failedTests = (query = '') => author.get(`/api/rules/projects/${autoProject.id}/failedtests/${query}`);
    const components = await expectStatus(author.get(`/api/rules/brl-components/?project_id=${autoProject.id}`), 200);
    const target = components.results.find((c: any) => c.component_type === 'test');
    const { body: original } = await expectStatus(author.get(`/api/rules/brl-components/${target.id}/`), 200);
    const test = JSON.parse(original);
    const broken = JSON.stringify({ ...test, expect: { ...test.expect, issues: ['no_such_issue'] } });
    await expectStatus(author.put(`/api/rules/brl-components/${target.id}/`, { body: broken }), 200);
    try {
      const run = await finished(
        author,
        await expectStatus(author.post(`/api/rules/projects/${autoProject.id}/build/async-test/`, {}), 202),
      );
      expect(run.resultStatus).toBe('ERROR');
      const failed = await expectStatus(failedTests(), 200);
      expect(failed.results.map((c: any) => c.id)).toEqual([target.id]);
      expect(failed.results[0]).toMatchObject({
        full_name: target.full_name,
        component_type: 'test',
        test_result: {
          name: target.name,
          job: run.id,
          tested_by: 'author@atrium.test',
          differences: [expect.objectContaining({ element: '(issues)', expected: ['no_such_issue'] })],
        },
      });
      // Another effective date's runs are its own: the published date has none failed.
      const published = autoProject.effective_dates.find((d: any) => d.status === 'published');
      expect((await expectStatus(failedTests(`?effective_date_id=${published.id}`), 200)).results).toEqual([]);
    } finally {
      await expectStatus(author.put(`/api/rules/brl-components/${target.id}/`, { body: original }), 200);
    }
    // Running that one test again, now passing, takes it off the list.
    const rerun = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${autoProject.id}/build/async-test/`, { component_id: target.id }),
        202,
      ),
    );
    expect(rerun.resultStatus).toBe('SUCCESS');
    expect((await expectStatus(failedTests(), 200)).results).toEqual([]);
    await expectStatus(failedTests('?effective_date_id=x'), 400);
    await expectStatus(author.get('/api/rules/projects/999999/failedtests/'), 404);
    await expectStatus(agent.get(`/api/rules/projects/${autoProject.id}/failedtests/`), 403);
  });

  it('gives the editor its suggestions: the ontology in force on the effective date and the templates', async () => {
    const draft = autoProject.effective_dates.find((d: any) => d.status === 'draft');
    const { suggestions } = await expectStatus(
      author.post('/api/rules/ontology/get-suggestions/', { project_id: autoProject.id, effective_date_id: draft.id }),
      200,
    );
    expect(suggestions).toMatchObject({ product: 'personal_auto', effective_date: '2026-07-01' });
    const vehicle = suggestions.ontology.riskTypes.find((t: any) => t.name === 'vehicle');
    expect(vehicle.fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['usage', 'vin', 'model_year']));
    expect(suggestions.templates.map((t: any) => [t.kind, t.name])).toEqual([['template', 'minimum_model_year']]);
    // Without a date: the current one (the latest draft).
    const current = await expectStatus(
      author.post('/api/rules/ontology/get-suggestions/', { project_id: autoProject.id }),
      200,
    );
    expect(current.suggestions.effective_date).toBe('2026-07-01');
    await expectStatus(author.post('/api/rules/ontology/get-suggestions/', { project_id: 999999 }), 404);
    await expectStatus(author.post('/api/rules/ontology/get-suggestions/', { project_id: 'x' }), 400);
    await expectStatus(underwriter.post('/api/rules/ontology/get-suggestions/', { project_id: autoProject.id }), 403);
  });
});

describe('UI controls', () => {
  it('answers each named element by the published rules in force on the view model date, with underwriting issues', async () => {
    const { data } = await expectStatus(uiControls(agent, '2026-03-01'), 200);
    expect(data.effective_date).toMatchObject({ effective_date: '2026-01-01' });
    expect(data.actions).toEqual([
      {
        name: 'vehicle#v1.roadside',
        readonly: false,
        visible: false,
        mandatory: false,
        isValid: true,
        validationMessage: null,
        optionsWhitelist: null,
        optionsBlacklist: null,
      },
      // The agent's role comes from the session (the body said Administrator): the VIN is read-only.
      expect.objectContaining({ name: 'vehicle#v1.vin', mandatory: true, readonly: true }),
      expect.objectContaining({ name: 'vehicle#v1.comprehensive', visible: true }),
    ]);
    expect(data.issues).toEqual([
      {
        code: 'PA-YOUNG',
        severity: 'refer',
        blocking: 'bind',
        message: 'A driver under 21 needs underwriter review.',
        rule: 'young_driver_referral',
        risk: '',
      },
    ]);
    const underwriting = await expectStatus(uiControls(underwriter, '2026-03-01', 'commute'), 200);
    expect(underwriting.data.actions[0]).toMatchObject({ visible: true });
    expect(underwriting.data.actions[1]).toMatchObject({ readonly: false, mandatory: false });
    // Before any published effective date: nothing runs, every element has its defaults.
    const before = await expectStatus(uiControls(agent, '2025-06-01'), 200);
    expect(before.data.effective_date).toBeNull();
    expect(before.data.actions[0]).toMatchObject({ visible: true });
  });

  it('gives quote the underwriting issues through RULES_RUNTIME, by blocking point', async () => {
    const risk = {
      type: 'policy',
      children: [
        ...[1, 2, 3, 4, 5].map((n) => ({ id: `v${n}`, type: 'vehicle', field_answers: { model_year: 2020 } })),
        { id: 'd1', type: 'driver', field_answers: { age: 19, violations: 3, at_fault_accidents: 1 } },
      ],
    };
    const codes = async (at?: string) =>
      (await expectStatus(server.admin.post('/api/rules-probe/issues/', { risk, ...(at ? { at } : {}) }), 200)).map(
        (i: any) => i.code,
      );
    expect(await codes()).toEqual(['PA-RECORD', 'PA-FLEET', 'PA-YOUNG']);
    expect(await codes('rate')).toEqual(['PA-RECORD']);
    expect(await codes('submit')).toEqual(['PA-RECORD', 'PA-FLEET']);
    expect(await codes('bind')).toEqual(['PA-RECORD', 'PA-FLEET', 'PA-YOUNG']);
  });

  it('refuses bad input with a clear 400 and callers without the execute permission', async () => {
    const bad = await expectStatus(
      agent.post('/api/rules/execution/ui-controls/', {
        data: { actions: [], context: { viewModel: { risk: { type: 'policy' } } } },
      }),
      400,
    );
    expect(JSON.stringify(bad)).toContain('The view model names the product (or the rules project) whose rules run.');
    await expectStatus(agent.post('/api/rules/execution/ui-controls/', { data: { context: {} } }), 400);
    await expectStatus(uiControls(adjuster, '2026-03-01'), 403);
  });

  it('answers the forms a policy carries by the deployed form-inclusion rules (the demo Maine disclosure)', async () => {
    const maine = 'Maine homeowners disclosure (ME HO-D 01 26)';
    const forms = (context: object, caller = underwriter) =>
      caller.post('/api/rules/execution/form-inclusion/', { data: { context } });
    const renewal = await expectStatus(
      forms({ product: 'homeowners', date: '2026-03-01', state: 'ME', transaction: 'renewal' }),
      200,
    );
    expect(renewal.data).toMatchObject({
      forms: [{ form: maine, printing: 'print', printOnRenewal: true, prints: true, rules: ['maine_disclosure'] }],
      errors: [],
      project: { name: 'homeowners_rules' },
      effective_date: { effective_date: '2026-01-01' },
    });
    const newYork = await expectStatus(forms({ product: 'homeowners', date: '2026-03-01', state: 'NY' }), 200);
    expect(newYork.data.forms).toEqual([]);
    // Nothing in force before the first published date, and no form-inclusion rules for auto.
    expect((await expectStatus(forms({ product: 'homeowners', date: '2025-06-01', state: 'ME' }), 200)).data).toEqual({
      forms: [],
      errors: [],
      project: null,
      effective_date: null,
    });
    expect((await expectStatus(forms({ product: 'personal_auto', state: 'ME' }), 200)).data.project).toBeNull();
    // The UI controls never see form-inclusion rules.
    expect((await expectStatus(uiControls(underwriter, '2026-03-01'), 200)).data.errors).toEqual([]);
    const bad = await expectStatus(forms({ state: 'ME' }), 400);
    expect(JSON.stringify(bad)).toContain('The context names the product (or the rules project) whose form rules run.');
    expect(JSON.stringify(await expectStatus(forms({ product: 'homeowners', state: 'Maine' }), 400))).toContain(
      'A state is two capital letters, such as ME.',
    );
    await expectStatus(forms({ product: 'homeowners', transaction: 'rewrite' }), 400);
    await expectStatus(forms({ product: 'homeowners' }, adjuster), 403);
  });
});

describe('authoring: change, validate, test, commit, deploy, publish', () => {
  it('runs a change through to the UI controls of its effective date', async () => {
    const draft = autoProject.effective_dates[1];
    const rule = await expectStatus(
      author.get('/api/rules/brl-components/by-full-name/personal_auto_rules.ui.business_use/'),
      200,
    );
    expect(rule).toMatchObject({
      component_type: 'rule',
      effective_date: draft.id,
      uncommitted: false,
      tree: { kind: 'rule', appliesTo: 'vehicle' },
    });
    // The published date cannot change.
    const published = autoProject.effective_dates[0];
    await expectStatus(
      author.put(`/api/rules/brl-components/${rule.id}/effective-date/${published.id}/`, {
        body: `${rule.body}# note\n`,
      }),
      409,
    );

    const body = rule.body.replace('  hide roadside\n', '  hide roadside\n  hide comprehensive\n');
    const changed = await expectStatus(author.put(`/api/rules/brl-components/${rule.id}/`, { body }), 200);
    expect(changed).toMatchObject({
      uncommitted: true,
      tree: { then: [{ action: 'hide' }, { action: 'hide', element: 'comprehensive' }, { action: 'mandatory' }] },
    });
    const uncommitted = await expectStatus(
      author.get(`/api/rules/projects/${autoProject.id}/uncommittedcomponents/`),
      200,
    );
    expect(uncommitted.results.map((c: any) => c.full_name)).toEqual(['personal_auto_rules.ui.business_use']);
    // The text as last committed, for the editor's diff.
    expect(
      await expectStatus(author.get(`/api/rules/brl-components/${rule.id}/effective-date/${draft.id}/committed/`), 200),
    ).toEqual({
      id: rule.id,
      full_name: 'personal_auto_rules.ui.business_use',
      effective_date: draft.id,
      uncommitted: true,
      body: rule.body,
    });
    await expectStatus(underwriter.get(`/api/rules/brl-components/${rule.id}/committed/`), 403);
    await expectStatus(author.get('/api/rules/brl-components/999999/committed/'), 404);

    const committed = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${autoProject.id}/build/async-commit/${draft.id}/`, {
          message: 'Hide comprehensive',
        }),
        202,
      ),
    );
    expect(committed).toMatchObject({ status: 'COMPLETED', resultStatus: 'SUCCESS' });
    expect(committed.result.hash).toMatch(/^[0-9a-f]{64}$/);
    // Compared with the commit the draft was copied from: only the changed rule, line by line.
    expect(committed.result.diff.map((d: any) => [d.fullName, d.change])).toEqual([
      ['personal_auto_rules.ui.business_use', 'changed'],
    ]);
    expect(
      committed.result.diff.find((d: any) => d.fullName === 'personal_auto_rules.ui.business_use').lines,
    ).toContain('+  hide comprehensive');
    expect(
      (await expectStatus(author.get(`/api/rules/projects/${autoProject.id}/uncommittedcomponents/`), 200)).count,
    ).toBe(0);

    // Publishing needs a deployment.
    await expectStatus(
      author.put(`/api/rules/projects/${autoProject.id}/effective-dates/${draft.id}/published/`, {}),
      409,
    );
    const deployed = await finished(
      author,
      await expectStatus(
        author.post(
          `/api/rules/projects/${autoProject.id}/build/async-deploy/${draft.id}/${committed.result.commitId}/`,
          {},
        ),
        202,
      ),
    );
    expect(deployed).toMatchObject({ resultStatus: 'SUCCESS', result: { deploymentId: expect.any(Number) } });
    const status = await expectStatus(
      author.put(`/api/rules/projects/${autoProject.id}/effective-dates/${draft.id}/published/`, {}),
      200,
    );
    expect(status.status).toBe('published');

    const july = await expectStatus(uiControls(underwriter, '2026-08-01'), 200);
    expect(july.data.effective_date.effective_date).toBe('2026-07-01');
    expect(july.data.actions[2]).toMatchObject({ name: 'vehicle#v1.comprehensive', visible: false });
    const march = await expectStatus(uiControls(underwriter, '2026-03-01'), 200);
    expect(march.data.actions[2]).toMatchObject({ visible: true });
  });

  it('refuses to commit what does not type-check against the product, listing each problem', async () => {
    const created = await expectStatus(
      author.post(`/api/rules/projects/${autoProject.id}/effective-dates/`, {
        effective_date: '2027-01-01',
        name: 'January 2027',
      }),
      201,
    );
    expect(created).toMatchObject({ status: 'draft', effective_date: '2027-01-01' });
    const pkg = (await expectStatus(author.get(`/api/rules/package/?project_id=${autoProject.id}`), 200)).results[0];
    const bad = await expectStatus(
      author.post(`/api/rules/brl-components/effective-date/${created.id}/`, {
        package_id: pkg.id,
        name: 'paint',
        folder: 'ui',
        component_type: 'rule',
        body: "rule paint\n  applies to vehicle\nwhen\n  it is true that colour = 'red'\nthen\n  hide sunroof\nend\n",
      }),
      201,
    );
    expect(bad).toMatchObject({ full_name: 'personal_auto_rules.ui.paint', uncommitted: true });
    const commit = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${autoProject.id}/build/async-commit/${created.id}/`, {}),
        202,
      ),
    );
    expect(commit.resultStatus).toBe('ERROR');
    expect(commit.result.problems).toEqual([
      {
        component: 'personal_auto_rules.ui.paint',
        message: "Rule 'paint': 'colour' is not a field of 'vehicle' or the risks it belongs to.",
      },
      {
        component: 'personal_auto_rules.ui.paint',
        message: "Rule 'paint': 'sunroof' is not a field or item of 'vehicle' or the risks it belongs to.",
      },
    ]);
    // A syntax error is saved (the editor keeps work in progress) and reported with its line.
    await expectStatus(
      author.put(`/api/rules/brl-components/${bad.id}/`, {
        body: 'rule paint\n  applies to vehicle\nwhen\n  nonsense\nthen\n  hide vin\nend\n',
      }),
      200,
    );
    const validated = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${autoProject.id}/build/validate/`, { effective_date_id: created.id }),
        202,
      ),
    );
    expect(validated.result.problems).toEqual([
      expect.objectContaining({ component: 'personal_auto_rules.ui.paint', line: 4, column: 3 }),
    ]);
    // Disabled and removed, the date commits again.
    await expectStatus(author.delete(`/api/rules/brl-components/${bad.id}/effective-date/${created.id}/`), 204);
    const ok = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${autoProject.id}/build/async-commit/${created.id}/`, {}),
        202,
      ),
    );
    expect(ok.resultStatus).toBe('SUCCESS');
  });

  it('manages tags and state, converts formulas, and checks input', async () => {
    const rule = await expectStatus(
      author.get('/api/rules/brl-components/by-full-name/personal_auto_rules.underwriting.fleet_decline/'),
      200,
    );
    const tagged = await expectStatus(
      author.post(`/api/rules/brl-components/${rule.id}/tags/`, { category: 'Label', value: 'fleet', priority: 2 }),
      200,
    );
    expect(tagged.tags).toContainEqual({ category: 'Label', value: 'fleet', priority: 2 });
    const byTag = await expectStatus(author.get('/api/rules/brl-components/?tags=Label.fleet'), 200);
    expect(byTag.results.map((c: any) => c.name)).toEqual(['fleet_decline']);
    await expectStatus(
      author.send('DELETE', `/api/rules/brl-components/${rule.id}/tags/`, {
        body: JSON.stringify({ category: 'Label', value: 'fleet' }),
        headers: { 'content-type': 'application/json' },
      }),
      200,
    );
    const disabled = await expectStatus(
      author.post(`/api/rules/brl-components/${rule.id}/set-state/disabled/`, {}),
      200,
    );
    expect(disabled).toMatchObject({ state: 'disabled', uncommitted: true });
    await expectStatus(author.post(`/api/rules/brl-components/${rule.id}/set-state/sleeping/`, {}), 400);

    expect(
      await expectStatus(
        author.post('/api/rules/ontology/formula-to-brl/', { formula: 'age<21 and violations>2' }),
        200,
      ),
    ).toEqual({
      brl: 'it is true that age < 21 and violations > 2',
    });
    expect(
      await expectStatus(
        author.post('/api/rules/ontology/brl-to-formula/', {
          brl: "there are at least 2 risks driver where age < 25\nuser role is 'Agent'",
        }),
        200,
      ),
    ).toEqual({ formula: "count_risks('driver', age < 25) >= 2 and user_role_is('Agent')" });
    const errors = await expectStatus(author.post('/api/rules/ontology/formula-to-brl/', { formula: 'age <' }), 400);
    expect(errors.errors[0]).toMatchObject({ line: 1, column: 6 });
    await expectStatus(author.post('/api/rules/ontology/brl-to-formula/', { brl: 'there is maybe a risk' }), 400);
    await expectStatus(
      author.post('/api/rules/projects/', {
        name: 'x y',
        label: 'X',
        product: 'personal_auto',
        effective_date: '2026-01-01',
      }),
      400,
    );
    await expectStatus(
      author.post('/api/rules/projects/', {
        name: 'boats',
        label: 'Boats',
        product: 'boats',
        effective_date: '2026-01-01',
      }),
      400,
    );
    const created = await expectStatus(
      author.post('/api/rules/projects/', {
        name: 'auto_extra',
        label: 'More auto rules',
        product: 'personal_auto',
        effective_date: '2026-01-01',
      }),
      201,
    );
    await expectStatus(
      author.post('/api/rules/projects/', {
        name: 'auto_extra',
        label: 'Again',
        product: 'personal_auto',
        effective_date: '2026-01-01',
      }),
      409,
    );
    await expectStatus(author.delete(`/api/rules/projects/${created.id}/`), 204);
    await expectStatus(author.get('/api/rules/job/not-a-uuid/'), 400);
  });

  it('moves components and folders, shows the folder structure and the values of a tag', async () => {
    const values = await expectStatus(author.get('/api/rules/tags/ComponentUsage/get_values/'), 200);
    expect(values.results).toEqual(['form-inclusion', 'underwriting']);
    const pkg = (await expectStatus(author.get(`/api/rules/package/?project_id=${autoProject.id}`), 200)).results[0];
    const moved = await expectStatus(
      author.put('/api/rules/brl-components/move_component/', {
        package_id: pkg.id,
        full_name: 'personal_auto_rules.validation.no_driver_warning',
        folder: 'underwriting/drivers',
        name: 'at_least_one_driver',
      }),
      200,
    );
    expect(moved.full_name).toBe('personal_auto_rules.underwriting.drivers.at_least_one_driver');
    const folders = await expectStatus(
      author.put('/api/rules/brl-components/move_components/', {
        package_id: pkg.id,
        from_folder: 'underwriting',
        to_folder: 'uw',
      }),
      200,
    );
    expect(folders.moved).toBe(4);
    const { results } = await expectStatus(
      author.get(`/api/rules/brl-components/structure/?package_id=${pkg.id}`),
      200,
    );
    const uw = results[0].structure.folders.find((f: any) => f.name === 'uw');
    expect(uw.folders.map((f: any) => f.path)).toEqual(['uw/drivers']);
    expect(uw.folders[0].components.map((c: any) => c.name)).toEqual(['at_least_one_driver']);
    await expectStatus(
      author.put('/api/rules/brl-components/move_components/', {
        package_id: pkg.id,
        from_folder: 'nowhere',
        to_folder: 'x',
      }),
      404,
    );
    await expectStatus(
      author.put('/api/rules/brl-components/move_component/', {
        package_id: pkg.id,
        full_name: 'personal_auto_rules.nope',
      }),
      404,
    );
  });
});

describe('sync, export and import', () => {
  const download = async (caller: Caller, jobId: string) => {
    const res = await caller.get(`/api/rules/job/${jobId}/file/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+-rules-export\.json"$/);
    return (await res.json()) as any;
  };
  /** The browser's part of an import: a ticket, the direct upload (no Authorization header), the key. */
  const upload = async (bytes: string) => {
    const ticket = await expectStatus(
      author.get(`/api/rules/projects/import-ui-${crypto.randomUUID()}/import/presigned_post_url/`),
      200,
    );
    const form = new FormData();
    for (const [name, value] of Object.entries(ticket.fields as Record<string, string>)) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'application/json' }), 'rules.json');
    const uploaded = await server.fetch(ticket.url, { method: 'POST', body: form });
    expect(uploaded.status).toBeLessThan(300);
    return ticket.key as string;
  };

  it('syncs with lines as a job: nothing to report while the rules match the version in force', async () => {
    const job = await finished(
      author,
      await expectStatus(author.post(`/api/rules/projects/${autoProject.id}/sync/`, {}), 202),
    );
    expect(job).toMatchObject({ kind: 'sync', status: 'COMPLETED', resultStatus: 'SUCCESS', progress: '100.00' });
    expect(job.result).toMatchObject({ linesVersion: expect.any(String), count: 0, results: [] });
    await expectStatus(underwriter.post(`/api/rules/projects/${autoProject.id}/sync/`, {}), 403);
    await expectStatus(author.post(`/api/rules/projects/${autoProject.id}/sync/`, { effective_date_id: 'x' }), 400);
  });

  it('exports a project to a file and imports it back as a new project with the same components', async () => {
    const exported = await finished(
      author,
      await expectStatus(author.get(`/api/rules/projects/${autoProject.id}/async-export/`), 202),
    );
    expect(exported).toMatchObject({ kind: 'export', resultStatus: 'SUCCESS' });
    expect(exported.result.file.name).toBe('personal_auto_rules-rules-export.json');
    const file = await download(author, exported.id);
    expect(file).toMatchObject({ format: 'atrium-rules-export', version: 1, project: { name: 'personal_auto_rules' } });
    expect(exported.result.counts.components).toBeGreaterThanOrEqual(10);

    const key = await upload(JSON.stringify(file));
    const imported = await finished(
      author,
      await expectStatus(author.post('/api/rules/projects/async-import/', { key, name: 'auto_copy' }), 202),
    );
    expect(imported).toMatchObject({ kind: 'import', resultStatus: 'SUCCESS' });
    expect(imported.result.counts).toEqual(exported.result.counts);
    const copy = await expectStatus(author.get(`/api/rules/projects/${imported.result.projectId}/`), 200);
    expect(copy).toMatchObject({ name: 'auto_copy', product: 'personal_auto' });
    expect(copy.effective_dates.every((d: any) => d.status === 'draft')).toBe(true);

    // The round trip: the copy exports to the same file but for its name (and, with nothing deployed, drafts).
    const again = await download(
      author,
      (await finished(author, await expectStatus(author.get(`/api/rules/projects/${copy.id}/async-export/`), 202))).id,
    );
    expect(again).toEqual({
      ...file,
      project: { ...file.project, name: 'auto_copy' },
      effective_dates: file.effective_dates.map((d: any) => ({ ...d, status: 'draft' })),
    });

    // The same name twice, and a file that is not an export, fail as jobs with the reason.
    const twice = await finished(
      author,
      await expectStatus(author.post('/api/rules/projects/async-import/', { key, name: 'auto_copy' }), 202),
    );
    expect(twice).toMatchObject({
      resultStatus: 'ERROR',
      result: { message: "A rules project named 'auto_copy' already exists." },
    });
    const bad = await finished(
      author,
      await expectStatus(
        author.post('/api/rules/projects/async-import/', { key: await upload('{"format":"other"}') }),
        202,
      ),
    );
    expect(bad).toMatchObject({ resultStatus: 'ERROR' });
    expect(bad.result.message).toMatch(/^The file is not a rules export: format: /);

    const missing = await expectStatus(
      author.post('/api/rules/projects/async-import/', { key: 'rules/imports/2026-01/nope' }),
      400,
    );
    expect(JSON.stringify(missing)).toContain('The uploaded file was not found; upload it again.');
    await expectStatus(author.post('/api/rules/projects/async-import/', { key: 'claims/attachments/x' }), 400);
    await expectStatus(underwriter.get(`/api/rules/projects/${autoProject.id}/async-export/`), 403);
    await expectStatus(
      agent.get(`/api/rules/projects/import-ui-${crypto.randomUUID()}/import/presigned_post_url/`),
      403,
    );
    await expectStatus(author.get(`/api/rules/projects/${autoProject.id}/async-export/?package_id=999999`), 404);
    await expectStatus(author.get(`/api/rules/job/${imported.id}/file/`), 404);
    await expectStatus(author.delete(`/api/rules/projects/${copy.id}/`), 204);
  });
});

describe('component structure by full name', () => {
  const structure = (caller: Caller, name: string, query = '') =>
    caller.get(`/api/rules/brl-components/${name}/structure/${query}`);

  it("answers a rule's When / Then / Otherwise lines, a template's arguments and a use's values", async () => {
    const rule = await expectStatus(structure(author, 'homeowners_rules.ui.poor_protection_construction'), 200);
    expect(rule).toMatchObject({
      full_name: 'homeowners_rules.ui.poor_protection_construction',
      component_type: 'rule',
    });
    expect(rule.structure).toEqual({
      kind: 'rule',
      name: 'poor_protection_construction',
      label: 'No frame homes in protection class 9-10',
      template: null,
      template_found: null,
      category: 'ui-control',
      applies_to: 'home',
      priority: 10,
      when: [{ tool: 'it-is-true-that', text: 'it is true that protection_class >= 9' }],
      then: [{ action: 'options-blacklist', text: "disallow construction options 'frame'" }],
      otherwise: [],
      arguments: [],
    });

    const template = await expectStatus(structure(author, 'homeowners_rules.templates.minimum_year'), 200);
    expect(template.structure).toMatchObject({
      kind: 'template',
      applies_to: 'home',
      when: [{ tool: 'it-is-true-that', text: 'it is true that {{field}} < {{earliest}}' }],
      arguments: [
        {
          name: 'field',
          label: 'Year field',
          documentation: 'The year field to check',
          type: 'field',
          'input-type': 'select',
          default: null,
          value: null,
        },
        {
          name: 'earliest',
          label: 'Earliest year',
          documentation: 'The first year accepted',
          type: 'number',
          'input-type': 'number',
          default: 1850,
          value: null,
        },
      ],
    });

    // A use: the template's body and parameters, with the use's values.
    const use = await expectStatus(structure(author, 'homeowners_rules.validation.year_built_minimum'), 200);
    expect(use.structure).toMatchObject({
      kind: 'use',
      name: 'year_built_minimum',
      template: 'minimum_year',
      template_found: true,
      category: 'validation',
      then: [{ action: 'invalid', text: "mark {{field}} invalid message 'This year is too early.'" }],
    });
    expect(use.structure.arguments.map((a: any) => [a.name, a.value, a.default])).toEqual([
      ['field', 'year_built', null],
      ['earliest', 1850, 1850],
    ]);

    // On a named effective date; a published one reads the same text.
    const dates = await expectStatus(
      author.get(`/api/rules/projects/${(await homeowners()).id}/effective-dates/`),
      200,
    );
    const published = dates.results.find((d: any) => d.status === 'published');
    const dated = await expectStatus(
      structure(author, 'homeowners_rules.ui.poor_protection_construction', `?effective_date_id=${published.id}`),
      200,
    );
    expect(dated).toMatchObject({ effective_date: published.id, structure: { priority: 10 } });
  });

  it('refuses what has no structure, unknown names, bad names and readers without the permission', async () => {
    const test = (
      await expectStatus(author.get(`/api/rules/brl-components/?project_id=${(await homeowners()).id}`), 200)
    ).results.find((c: any) => c.component_type === 'test');
    const refused = await expectStatus(structure(author, test.full_name), 400);
    expect(JSON.stringify(refused)).toContain(
      `Component ${test.full_name} has no structure (it is not a rule or a template, or it does not parse).`,
    );
    await expectStatus(structure(author, 'homeowners_rules.ui.nope'), 404);
    const bad = await expectStatus(structure(author, 'no-dots'), 400);
    expect(JSON.stringify(bad)).toContain('Name a component by its full name, package.folder.name.');
    await expectStatus(
      structure(author, 'homeowners_rules.ui.poor_protection_construction', '?effective_date_id=x'),
      400,
    );
    await expectStatus(structure(underwriter, 'homeowners_rules.ui.poor_protection_construction'), 403);
    await expectStatus(structure(server.as(null), 'homeowners_rules.ui.poor_protection_construction'), 401);
  });
});

describe('cancelling a job', () => {
  const probeJob = async () =>
    (await expectStatus(server.admin.post('/api/rules-probe/jobs/', { kind: 'export', project: autoProject.id }), 200))
      .id as string;

  it('cancels a job waiting in the queue: the worker then leaves it alone', async () => {
    const id = await probeJob();
    // Cancelling needs the permission that starts that kind of job (an export: reading projects).
    await expectStatus(underwriter.post(`/api/rules/job/${id}/cancel/`, {}), 403);
    const cancelled = await expectStatus(author.post(`/api/rules/job/${id}/cancel/`, {}), 200);
    expect(cancelled).toMatchObject({
      id,
      kind: 'export',
      status: 'CANCELLED',
      resultStatus: null,
      progress: '0.00',
      result: { message: 'Cancelled by author@atrium.test.' },
    });
    expect(
      await expectStatus(server.admin.post(`/api/rules-probe/jobs/${id}/run/`, { cancelAfterWrite: false }), 200),
    ).toEqual({ written: [], inserted: [], kept: [] });
    expect(await expectStatus(author.get(`/api/rules/job/${id}/`), 200)).toMatchObject({ status: 'CANCELLED' });
    const again = await expectStatus(author.post(`/api/rules/job/${id}/cancel/`, {}), 409);
    expect(JSON.stringify(again)).toContain(
      'The export job has already been cancelled; it can no longer be cancelled.',
    );
    await expectStatus(author.get(`/api/rules/job/${id}/file/`), 404);
  });

  it('cancels a running export: its file is not kept and the job stays cancelled', async () => {
    const id = await probeJob();
    const run = await expectStatus(
      server.admin.post(`/api/rules-probe/jobs/${id}/run/`, { cancelAfterWrite: true }),
      200,
    );
    expect(run.written).toHaveLength(1);
    expect(run.kept).toEqual([false]);
    expect(await expectStatus(author.get(`/api/rules/job/${id}/`), 200)).toMatchObject({
      status: 'CANCELLED',
      resultStatus: null,
      progress: '10.00',
    });
    await expectStatus(author.get(`/api/rules/job/${id}/file/`), 404);
  });

  it('refuses to cancel a finished job, an unknown one, and a build without the permission to start it', async () => {
    const done = await finished(
      author,
      await expectStatus(author.get(`/api/rules/projects/${autoProject.id}/async-export/`), 202),
    );
    const refused = await expectStatus(author.post(`/api/rules/job/${done.id}/cancel/`, {}), 409);
    expect(JSON.stringify(refused)).toContain('The export job has already finished; it can no longer be cancelled.');
    expect(await expectStatus(author.get(`/api/rules/job/${done.id}/`), 200)).toMatchObject({ status: 'COMPLETED' });
    await expectStatus(author.post(`/api/rules/job/${crypto.randomUUID()}/cancel/`, {}), 404);
    await expectStatus(author.post('/api/rules/job/not-a-uuid/cancel/', {}), 400);
    // A role that may read rules may cancel an export, not a commit (that needs rules:build commit).
    expect(
      await Promise.all([
        server.admin.post('/api/access/roles', { name: 'Rules Cancel Reader' }),
        server.admin.post('/api/access/policies', {
          name: 'Rules cancel read-only',
          statements: [{ sid: 'Read', effect: 'allow', actions: ['read'], resources: ['rules:project'] }],
        }),
      ]).then((r) => r.map((x) => x.status)),
    ).toEqual([201, 201]);
    const { results } = await expectStatus(
      server.admin.get('/api/access/policies?name=Rules%20cancel%20read-only'),
      200,
    );
    await expectStatus(
      server.admin.post('/api/access/policy-assignments', { policy_id: results[0].id, role: 'Rules Cancel Reader' }),
      201,
    );
    await expectStatus(
      server.admin.post('/api/access/role-user-name-assignments', {
        user_name: 'rules-reader@atrium.test',
        role: 'Rules Cancel Reader',
      }),
      201,
    );
    const reader = server.as('rules-reader@atrium.test');
    const commitJob = (
      await expectStatus(server.admin.post('/api/rules-probe/jobs/', { kind: 'commit', project: autoProject.id }), 200)
    ).id;
    await expectStatus(reader.post(`/api/rules/job/${commitJob}/cancel/`, {}), 403);
    await expectStatus(reader.post(`/api/rules/job/${await probeJob()}/cancel/`, {}), 200);
    await expectStatus(author.post(`/api/rules/job/${commitJob}/cancel/`, {}), 200);
  });
});

describe('cancelling a commit or deploy inside its transaction', () => {
  it('rolls back a commit, then a deploy, cancelled after their work was written: no commit, no deployment', async () => {
    const project = await homeowners();
    const draft = project.effective_dates.find((d: any) => d.status === 'draft');
    const rows = () => expectStatus(server.admin.get(`/api/rules-probe/rows/${project.id}/`), 200);
    const uncommitted = async () =>
      (await expectStatus(author.get(`/api/rules/projects/${project.id}/uncommittedcomponents/`), 200)).results.map(
        (c: any) => c.full_name,
      );
    const { results } = await expectStatus(author.get(`/api/rules/brl-components/?project_id=${project.id}`), 200);
    const rule = results.find((c: any) => c.component_type === 'rule');
    const body = (await expectStatus(author.get(`/api/rules/brl-components/${rule.id}/`), 200)).body;
    await expectStatus(
      author.put(`/api/rules/brl-components/${rule.id}/`, { body: `${body}# ${crypto.randomUUID()}\n` }),
      200,
    );
    expect(await uncommitted()).toContain(rule.full_name);
    const before = await rows();

    const probeRun = async (kind: 'commit' | 'deploy', params: Record<string, unknown>) => {
      const { id } = await expectStatus(
        server.admin.post('/api/rules-probe/jobs/', { kind, project: project.id, params }),
        200,
      );
      const run = await expectStatus(
        server.admin.post(`/api/rules-probe/jobs/${id}/run/`, { cancelAfterWrite: false, cancelInTransaction: true }),
        200,
      );
      return { run, job: await expectStatus(author.get(`/api/rules/job/${id}/`), 200) };
    };

    // The commit wrote its snapshot inside the transaction, then found the job cancelled before it ended.
    const commit = await probeRun('commit', { effectiveDateId: draft.id, message: 'Cancelled' });
    expect(commit.run.inserted).toContain('commit');
    expect(commit.job).toMatchObject({
      kind: 'commit',
      status: 'CANCELLED',
      resultStatus: null,
      result: { message: 'Cancelled by author@atrium.test.' },
    });
    expect(await rows()).toEqual(before);
    // The component's committed text was not moved on either: it is still uncommitted.
    expect(await uncommitted()).toContain(rule.full_name);

    // A real commit, then a deploy of it cancelled the same way: no deployment.
    const committed = await finished(
      author,
      await expectStatus(
        author.post(`/api/rules/projects/${project.id}/build/async-commit/${draft.id}/`, { message: 'Kept' }),
        202,
      ),
    );
    expect(committed).toMatchObject({ status: 'COMPLETED', resultStatus: 'SUCCESS' });
    expect(await rows()).toEqual({ ...before, commits: before.commits + 1 });
    const deploy = await probeRun('deploy', { effectiveDateId: draft.id, commitId: committed.result.commitId });
    expect(deploy.run.inserted).toContain('deployment');
    expect(deploy.job).toMatchObject({ kind: 'deploy', status: 'CANCELLED', resultStatus: null });
    expect(await rows()).toEqual({ ...before, commits: before.commits + 1 });
  });
});

describe('packages: dependencies, tags, namespaces', () => {
  it('tags a package, pins it as a dependency, lists the namespace, and carries both through export and import', async () => {
    const main = (await expectStatus(author.get(`/api/rules/package/?project_id=${autoProject.id}`), 200)).results[0];
    const lib = await expectStatus(
      author.post('/api/rules/package/', { project_id: autoProject.id, name: 'auto_lib' }),
      201,
    );
    await expectStatus(author.post('/api/rules/package/', { project_id: autoProject.id, name: 'auto_lib' }), 409);
    const template = (
      await expectStatus(author.get(`/api/rules/brl-components/?project_id=${autoProject.id}`), 200)
    ).results.find((c: any) => c.name === 'minimum_model_year');
    const added = await expectStatus(author.post(`/api/rules/package/${lib.id}/component/${template.id}/`, {}), 201);
    expect(added).toMatchObject({ package: lib.id, package_name: 'auto_lib', name: 'minimum_model_year' });
    await expectStatus(author.post(`/api/rules/package/${lib.id}/component/${template.id}/`, {}), 409);

    const tag = await expectStatus(author.post('/api/rules/package-tag/', { package_id: lib.id }), 201);
    expect(tag).toMatchObject({ name: 'v1', package: lib.id, package_name: 'auto_lib', components: 1 });
    expect((await expectStatus(author.put(`/api/rules/package-tag/${tag.id}/set-name/1.0.0/`, {}), 200)).name).toBe(
      '1.0.0',
    );
    await expectStatus(author.put(`/api/rules/package-tag/${tag.id}/set-name/-x/`, {}), 400);
    const mainTag = await expectStatus(
      author.post('/api/rules/package-tag/', { package_id: main.id, name: 'm1' }),
      201,
    );
    await expectStatus(author.post('/api/rules/package-tag/', { package_id: main.id, name: 'm1' }), 409);

    const deps = await expectStatus(
      author.post(`/api/rules/package/${main.id}/dependency/${lib.id}/${tag.id}/`, {}),
      201,
    );
    expect(deps.results).toEqual([
      { package: { id: lib.id, name: 'auto_lib', project: autoProject.id }, tag: { id: tag.id, name: '1.0.0' } },
    ]);
    expect((await expectStatus(author.get(`/api/rules/package/${main.id}/dependencies/`), 200)).count).toBe(1);
    const cycle = await expectStatus(
      author.post(`/api/rules/package/${lib.id}/dependency/${main.id}/${mainTag.id}/`, {}),
      409,
    );
    expect(JSON.stringify(cycle)).toContain('cannot go round in a circle');
    await expectStatus(author.post(`/api/rules/package/${main.id}/dependency/${lib.id}/${mainTag.id}/`, {}), 404);
    await expectStatus(author.post(`/api/rules/package/${main.id}/dependency/${main.id}/${mainTag.id}/`, {}), 409);

    const namespace = await expectStatus(author.get(`/api/rules/package/${main.id}/namespaces/master/`), 200);
    expect(namespace).toMatchObject({ namespace: 'master', package: { id: main.id } });
    expect(namespace.components).toContainEqual(
      expect.objectContaining({
        full_name: expect.stringMatching(/^auto_lib\..*minimum_model_year$/),
        package: 'auto_lib',
        tag: '1.0.0',
      }),
    );
    expect(namespace.components.filter((c: any) => c.tag === null).length).toBeGreaterThanOrEqual(10);

    // brloo: names resolved the way the package's components name them, each with its text and tree.
    const libName = namespace.components.find((c: any) => c.tag === '1.0.0').full_name;
    const own = namespace.components.find((c: any) => c.tag === null && c.name === 'minimum_model_year');
    const brloo = (caller: Caller, packageId: number, serialized?: string) =>
      caller.get(
        `/api/rules/brloo/packages/${packageId}/query/${serialized === undefined ? '' : `?serialized=${encodeURIComponent(serialized)}`}`,
      );
    const query = await expectStatus(brloo(author, main.id, ` minimum_model_year,${libName},minimum_model_year`), 200);
    expect(query).toMatchObject({
      package: { id: main.id, name: 'personal_auto_rules' },
      namespace: 'master',
      effective_date: namespace.effective_date,
    });
    // A short name is the package's own component first; a full name finds the dependency's, pinned.
    expect(query.results.map((r: any) => [r.query, r.full_name, r.package, r.tag])).toEqual([
      ['minimum_model_year', own.full_name, 'personal_auto_rules', null],
      [libName, libName, 'auto_lib', '1.0.0'],
    ]);
    expect(query.results[1]).toMatchObject({
      component_type: 'template',
      state: 'enabled',
      body: expect.stringContaining('minimum_model_year'),
      tree: expect.objectContaining({ kind: 'template', name: 'minimum_model_year' }),
    });
    const missing = await expectStatus(brloo(author, main.id, `${libName},nope,auto_lib.nope`), 404);
    expect(JSON.stringify(missing)).toContain(
      "Not in the master namespace of package 'personal_auto_rules': 'nope', 'auto_lib.nope'.",
    );
    expect(JSON.stringify(await expectStatus(brloo(author, main.id), 400))).toContain('serialized');
    expect(JSON.stringify(await expectStatus(brloo(author, main.id, ' , '), 400))).toContain(
      'serialized is a comma-separated list of component names.',
    );
    await expectStatus(brloo(author, main.id, 'a;drop'), 400);
    await expectStatus(brloo(author, main.id, Array.from({ length: 201 }, (_, i) => `n${i}`).join(',')), 400);
    await expectStatus(brloo(author, 999999, 'x'), 404);
    await expectStatus(brloo(author, 0, 'x'), 400);
    await expectStatus(brloo(underwriter, main.id, 'minimum_model_year'), 403);

    const tags = await expectStatus(author.get(`/api/rules/package-tag/summary/?packageId=${lib.id}`), 200);
    expect(tags.results.map((t: any) => t.name)).toEqual(['1.0.0']);
    const detail = await expectStatus(author.get(`/api/rules/package-tag/${tag.id}/`), 200);
    expect(detail.components[0]).toMatchObject({
      full_name: expect.stringMatching(/^auto_lib\..*minimum_model_year$/),
      component_type: 'template',
    });
    expect(await expectStatus(author.get(`/api/rules/package-tag/${tag.id}/summary/`), 200)).toMatchObject({
      by_type: { template: 1 },
      pinned_by: 1,
    });
    const pinned = await expectStatus(author.delete(`/api/rules/package-tag/${tag.id}/`), 409);
    expect(JSON.stringify(pinned)).toContain("is pinned by 'personal_auto_rules'");

    // Export one package with what it depends on; the import keeps the tag and the pin.
    const exported = await finished(
      author,
      await expectStatus(
        author.get(
          `/api/rules/projects/${autoProject.id}/async-export/?package_id=${main.id}&include-dependencies=true`,
        ),
        202,
      ),
    );
    const file = await (await author.get(`/api/rules/job/${exported.id}/file/`)).json();
    expect(file.packages.map((p: any) => [p.name, p.dependencies, p.tags.map((t: any) => t.name)])).toEqual([
      ['auto_lib', [], ['1.0.0']],
      ['personal_auto_rules', [{ package: 'auto_lib', tag: '1.0.0' }], ['m1']],
    ]);
    const alone = await finished(
      author,
      await expectStatus(author.get(`/api/rules/projects/${autoProject.id}/async-export/?package_id=${main.id}`), 202),
    );
    expect(
      (await (await author.get(`/api/rules/job/${alone.id}/file/`)).json()).packages.map((p: any) => p.dependencies),
    ).toEqual([[]]);
    const ticket = await expectStatus(
      author.get(`/api/rules/projects/import-ui-${crypto.randomUUID()}/import/presigned_post_url/`),
      200,
    );
    const form = new FormData();
    for (const [k, v] of Object.entries(ticket.fields as Record<string, string>)) form.append(k, v);
    form.append('file', new Blob([JSON.stringify(file)], { type: 'application/json' }), 'rules.json');
    expect((await server.fetch(ticket.url, { method: 'POST', body: form })).status).toBeLessThan(300);
    const imported = await finished(
      author,
      await expectStatus(
        author.post('/api/rules/projects/async-import/', { key: ticket.key, name: 'auto_pkg_copy' }),
        202,
      ),
    );
    expect(imported).toMatchObject({ resultStatus: 'SUCCESS' });
    const copied = (await expectStatus(author.get(`/api/rules/package/?project_id=${imported.result.projectId}`), 200))
      .results;
    const copiedMain = copied.find((p: any) => p.name === 'personal_auto_rules');
    const copiedDeps = await expectStatus(author.get(`/api/rules/package/${copiedMain.id}/dependencies/`), 200);
    expect(copiedDeps.results.map((d: any) => [d.package.name, d.tag.name])).toEqual([['auto_lib', '1.0.0']]);
    await expectStatus(author.delete(`/api/rules/projects/${imported.result.projectId}/`), 204);

    await expectStatus(underwriter.post('/api/rules/package-tag/', { package_id: lib.id }), 403);
    await expectStatus(agent.get('/api/rules/package-tag/summary/'), 403);
    await expectStatus(author.delete(`/api/rules/package/${main.id}/dependency/${lib.id}/${tag.id}/`), 204);
    await expectStatus(author.delete(`/api/rules/package/${main.id}/dependency/${lib.id}/${tag.id}/`), 404);
    await expectStatus(author.delete(`/api/rules/package-tag/${tag.id}/`), 204);
    await expectStatus(author.get(`/api/rules/package-tag/${tag.id}/`), 404);
  });
});

describe('project archetypes', () => {
  it('lists the archetypes and creates a project from one that validates against its product', async () => {
    const archetypes = await expectStatus(author.get('/api/rules/project-archetype/'), 200);
    expect(archetypes.results.map((a: any) => a.name)).toEqual(['empty', 'ui_controls', 'quoting']);
    const quoting = archetypes.results.find((a: any) => a.name === 'quoting');
    const body = {
      name: 'auto_starter',
      label: 'Auto starter',
      product: 'personal_auto',
      effective_date: '2026-09-01',
    };
    const created = await expectStatus(author.post(`/api/rules/project-archetype/${quoting.id}/create/`, body), 201);
    expect(created).toMatchObject({ name: 'auto_starter', product: 'personal_auto' });
    expect(created.effective_dates.map((d: any) => [d.effective_date, d.status])).toEqual([['2026-09-01', 'draft']]);
    const components = await expectStatus(author.get(`/api/rules/brl-components/?project_id=${created.id}`), 200);
    expect(components.results.map((c: any) => c.full_name).sort()).toEqual(
      quoting.components.map((c: any) => `auto_starter.templates.${c.name}`).sort(),
    );
    const validated = await finished(
      author,
      await expectStatus(author.post(`/api/rules/projects/${created.id}/build/validate/`, {}), 202),
    );
    expect(validated).toMatchObject({ resultStatus: 'SUCCESS', result: { problems: [] } });
    await expectStatus(author.post(`/api/rules/project-archetype/${quoting.id}/create/`, body), 409);
    await expectStatus(author.post('/api/rules/project-archetype/99/create/', { ...body, name: 'x1' }), 404);
    await expectStatus(
      author.post(`/api/rules/project-archetype/${quoting.id}/create/`, { ...body, name: 'x2', product: 'nope' }),
      400,
    );
    await expectStatus(underwriter.get('/api/rules/project-archetype/'), 403);
    await expectStatus(agent.post(`/api/rules/project-archetype/${quoting.id}/create/`, { ...body, name: 'x3' }), 403);
    await expectStatus(author.delete(`/api/rules/projects/${created.id}/`), 204);
  });
});

describe('GraphQL', () => {
  const graphql = (caller: Caller, query: string, variables?: Record<string, unknown>) =>
    caller.post('/api/graphql/rules', { query, ...(variables ? { variables } : {}) });

  it('answers projects, effective dates, packages and components with the REST permissions', async () => {
    const { data } = await expectStatus(
      graphql(
        author,
        `
          query Rules($name: String) {
            projects {
              name
              product
            }
            project(name: $name) {
              id
              effectiveDates {
                effectiveDate
                status
              }
              packages {
                name
                dependencies {
                  package {
                    name
                  }
                  tag {
                    name
                  }
                }
              }
              components(tag: "ComponentUsage.underwriting") {
                fullName
                componentType
                uncommitted
              }
            }
          }
        `,
        { name: 'personal_auto_rules' },
      ),
      200,
    );
    expect(data.projects).toEqual([
      { name: 'homeowners_rules', product: 'homeowners' },
      { name: 'personal_auto_rules', product: 'personal_auto' },
    ]);
    expect(data.project.id).toBe(autoProject.id);
    expect(data.project.effectiveDates[0]).toEqual({ effectiveDate: '2026-01-01', status: 'published' });
    expect(data.project.packages.map((p: any) => p.name)).toContain('personal_auto_rules');
    const rest = await expectStatus(
      author.get(`/api/rules/brl-components/?project_id=${autoProject.id}&tags=ComponentUsage.underwriting`),
      200,
    );
    expect(data.project.components.map((c: any) => c.fullName)).toEqual(rest.results.map((c: any) => c.full_name));

    // Without rules:project read: the spec's 403 message as a GraphQL error, no data leaked.
    const refused = await expectStatus(graphql(underwriter, '{ projects { name } }'), 200);
    expect(refused.data).toBeNull();
    expect(refused.errors[0]).toMatchObject({
      message: 'This operation is not allowed. (Error code: 403)',
      extensions: { code: 'FORBIDDEN' },
    });
    const bad = await expectStatus(graphql(author, '{ projects { nope } }'), 400);
    expect(bad.errors[0].message).toContain('nope');
    await expectStatus(graphql(author, '{ projects { name '), 400);
    const noToken = await server.fetch('/api/graphql/rules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ projects { name } }' }),
    });
    expect(noToken.status).toBe(401);
  });
});

describe("the spec's other reads and changes", () => {
  it("answers archived dates, a date's change and components, a package and its summary, compiled forms, filters by tag and package, and a component's dates", async () => {
    const project = await homeowners();
    const dates = (path = '') =>
      expectStatus(author.get(`/api/rules/projects/${project.id}/effective-dates/${path}`), 200);
    // A draft date of its own (the copy of the latest earlier date's components), renamed and moved.
    const made = await expectStatus(
      author.post(`/api/rules/projects/${project.id}/effective-dates/`, { effective_date: '2098-03-01' }),
      201,
    );
    const changed = await expectStatus(
      author.put(`/api/rules/projects/${project.id}/effective-dates/${made.id}/`, {
        name: 'March 2098',
        description: 'Moved a day',
        effective_date: '2098-03-02',
      }),
      200,
    );
    expect(changed).toMatchObject({
      id: made.id,
      name: 'March 2098',
      description: 'Moved a day',
      effective_date: '2098-03-02',
      status: 'draft',
    });
    await expectStatus(
      author.put(`/api/rules/projects/${project.id}/effective-dates/${made.id}/`, { effective_date: '2098-02-30' }),
      400,
    );
    await expectStatus(
      underwriter.put(`/api/rules/projects/${project.id}/effective-dates/${made.id}/`, { name: 'x' }),
      403,
    );
    const components = await expectStatus(
      author.get(`/api/rules/projects/${project.id}/effective-dates/${made.id}/components/`),
      200,
    );
    expect(components.count).toBeGreaterThan(0);
    expect(components.results.every((c: any) => c.effective_date === made.id && c.body === undefined)).toBe(true);
    await expectStatus(author.get(`/api/rules/projects/${project.id}/effective-dates/999999/components/`), 404);

    // Archived: listed only with state=archived; back to draft leaves it.
    await expectStatus(author.put(`/api/rules/projects/${project.id}/effective-dates/${made.id}/archived/`, {}), 200);
    expect((await dates('?state=archived')).results.map((d: any) => d.id)).toEqual([made.id]);
    expect((await dates()).results.map((d: any) => d.id)).not.toContain(made.id);
    await expectStatus(author.get(`/api/rules/projects/${project.id}/effective-dates/?state=old`), 400);
    await expectStatus(author.put(`/api/rules/projects/${project.id}/effective-dates/${made.id}/draft/`, {}), 200);
    expect((await dates('?state=archived')).results).toEqual([]);

    // A component's dates: each date it has a version on, with its state there.
    const rule = components.results.find((c: any) => c.component_type === 'rule' && c.tags?.length > 0);
    expect(rule).toBeTruthy();
    const onDates = await expectStatus(
      author.get(`/api/rules/projects/${project.id}/components/${rule.id}/effective-dates/`),
      200,
    );
    expect(onDates.results.map((d: any) => d.effective_date)).toContain('2098-03-02');
    expect(onDates.results.every((d: any) => d.component_state === 'enabled' || d.component_state === 'disabled')).toBe(
      true,
    );
    await expectStatus(agent.get(`/api/rules/projects/${project.id}/components/${rule.id}/effective-dates/`), 403);

    // The package and its summary on the current date.
    const pkg = (await expectStatus(author.get(`/api/rules/package/?project_id=${project.id}`), 200)).results[0];
    expect(await expectStatus(author.get(`/api/rules/package/${pkg.id}/`), 200)).toMatchObject({
      id: pkg.id,
      name: pkg.name,
    });
    const summary = await expectStatus(author.get(`/api/rules/package/${pkg.id}/summary/`), 200);
    expect(summary).toMatchObject({ id: pkg.id, components: expect.any(Number), uncommitted: expect.any(Number) });
    expect(Object.values(summary.by_type as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      summary.components,
    );
    await expectStatus(author.get('/api/rules/package/999999/'), 404);
    await expectStatus(underwriter.get(`/api/rules/package/${pkg.id}/summary/`), 403);

    // Compiled: a rule's tree as the runtime runs it, on the current date or a named one; a test has none.
    const compiled = await expectStatus(author.get(`/api/rules/brl-components/${rule.id}/compiled/`), 200);
    expect(compiled).toMatchObject({ id: rule.id, compiled: { kind: 'rule' } });
    expect(
      await expectStatus(author.get(`/api/rules/brl-components/${rule.id}/effective-date/${made.id}/compiled/`), 200),
    ).toMatchObject({ id: rule.id, compiled: { kind: 'rule' } });
    const test = components.results.find((c: any) => c.component_type === 'test');
    expect(test).toBeTruthy();
    await expectStatus(author.get(`/api/rules/brl-components/${test.id}/compiled/`), 400);
    await expectStatus(agent.get(`/api/rules/brl-components/${rule.id}/compiled/`), 403);

    // Filtered by tag and package together.
    const tag = (rule.tags as { category: string; value: string }[])[0]!;
    expect(tag).toBeTruthy();
    const byTag = await expectStatus(
      author.get(`/api/rules/brl-components/?tags=${tag.category}.${tag.value}&package-id=${pkg.id}`),
      200,
    );
    expect(byTag.results.map((c: any) => c.id)).toContain(rule.id);
    expect(
      byTag.results.every(
        (c: any) =>
          c.package === pkg.id && c.tags.some((t: any) => t.category === tag.category && t.value === tag.value),
      ),
    ).toBe(true);
    await expectStatus(author.get('/api/rules/brl-components/?package-id=x'), 400);
    await expectStatus(author.get('/api/rules/brl-components/?tags=nodot'), 400);
  });
});
