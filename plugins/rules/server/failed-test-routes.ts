import { sql } from 'drizzle-orm';
import { z, type AtriumRouter, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import type { RuleTestResult } from '@atrium/rating/rules';
import { can } from './permissions.js';
import { componentView, list } from './routes.js';
import { componentsAt, effectiveDateOf, findProject } from './store.js';
import { job } from './tables.js';

/** The latest result of one test component, and the job that ran it. */
export interface LatestTestResult {
  result: RuleTestResult;
  jobId: string;
  testedAt: Date;
  testedBy: string;
}

/**
 * Each test component's result from the latest finished test job of the effective date that ran it
 * (a whole-date run or a run of that one test), by component full name. The test job stores its
 * results on the job row (`result.tests`); nothing else keeps them.
 */
export async function latestTestResults(
  db: Queryable,
  projectId: number,
  effectiveDateId: number,
): Promise<Map<string, LatestTestResult>> {
  const result = await db.execute(sql`
    select distinct on (t.value->>'component') t.value as test, j.id as job_id, j.updated_at, j.created_by
    from ${job} j cross join lateral jsonb_array_elements(coalesce(j.result->'tests', '[]'::jsonb)) t
    where j.project_id = ${projectId} and j.kind = 'test' and j.status = 'COMPLETED'
      and j.params->>'effectiveDateId' = ${String(effectiveDateId)}
    order by t.value->>'component', j.updated_at desc, j.id`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as {
    test: RuleTestResult & { component: string };
    job_id: string;
    updated_at: Date | string;
    created_by: string;
  }[];
  return new Map(
    rows.map((row) => {
      const { component, ...test } = row.test;
      return [
        component,
        { result: test, jobId: row.job_id, testedAt: new Date(row.updated_at), testedBy: row.created_by },
      ];
    }),
  );
}

const id = z.coerce.number().int().positive();

/**
 * Failed rule tests (not in the spec, in the style of `uncommittedcomponents/`): the enabled test
 * components of an effective date whose latest run failed, for My work and the editor. A test
 * passes again only when a later run passes it; one never run is not listed.
 */
export function registerFailedTestRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  router.get(
    '/rules/projects/:id/failedtests/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary:
          'Lists the test components of an effective date (default: the current one) whose latest test run failed.',
        tags: ['rules'],
        security: [{ bearer: [] }],
        params: z.object({ id }),
        querystring: z.object({ effective_date_id: id.optional() }),
      },
    },
    async (request) => {
      await findProject(db, request.params.id);
      const date = await effectiveDateOf(db, request.params.id, request.query.effective_date_id);
      const tests = (await componentsAt(db, request.params.id, date.id)).filter(
        (c) => c.componentType === 'test' && c.state === 'enabled',
      );
      if (tests.length === 0) return list([]);
      const latest = await latestTestResults(db, request.params.id, date.id);
      return list(
        tests.flatMap((c) => {
          const run = latest.get(c.fullName);
          if (!run || run.result.testPassed) return [];
          return [
            {
              ...componentView(c, false),
              test_result: {
                name: run.result.name,
                differences: run.result.differences,
                errors: run.result.errors,
                job: run.jobId,
                date_tested: run.testedAt.toISOString(),
                tested_by: run.testedBy,
              },
            },
          ];
        }),
      );
    },
  );
}
