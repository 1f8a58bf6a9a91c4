import { z, type AccessEvaluator, type AtriumRouter } from '@atrium/sdk/server';

/**
 * `POST evaluations`: may the caller, in their effective role, do each of these things? The UI asks
 * this to decide what to show (ViewModule on `ui:<module>` for navigation); the server checks every
 * call again. Answers carry the reason: allowed-by-statement, denied-by-statement,
 * no-matching-statement, no-role-assignment or no-effective-role.
 */
export const MAX_EVALUATION_REQUESTS = 1000;

const attributes = z.record(z.string(), z.unknown());
const evaluationsBody = z.strictObject({
  requests: z
    .array(
      z.strictObject({
        resource: z.string().min(1).max(200),
        action: z.string().min(1).max(100),
        record: attributes.optional(),
        context: attributes.optional(),
      }),
    )
    .max(MAX_EVALUATION_REQUESTS),
});
const evaluationsOut = z.object({
  results: z.array(z.object({ evaluation: z.object({ allowed: z.boolean(), reason: z.string().optional() }) })),
});

export function evaluationRoutes(router: AtriumRouter, evaluator: () => AccessEvaluator) {
  router.post(
    '/evaluations',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "Evaluates (resource, action, record, context) requests for the caller's effective role.",
        description: `At most ${MAX_EVALUATION_REQUESTS} requests; results come in the order of the requests.`,
        tags: ['access'],
        security: [{ bearer: [] }],
        body: evaluationsBody,
        response: { 200: evaluationsOut },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const results = [];
      for (const question of request.body.requests) {
        const evaluation = await evaluator().evaluate(principal, question);
        results.push({
          evaluation: { allowed: evaluation.allowed, ...(evaluation.reason ? { reason: evaluation.reason } : {}) },
        });
      }
      return { results };
    },
  );
}
