import { ApiError, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { TRANSACTION_KINDS } from '@atrium/rating/rules';
import { formsInForce } from './form-inclusion.js';
import { can } from './permissions.js';
import { riskSchema } from './routes.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.');

/**
 * `POST /api/rules/execution/form-inclusion/` (designed here in the style of the UI-controls call;
 * the spec does not show it): the forms the deployed form-inclusion rules attach to a policy's
 * declarations. The documents module asks the same through the FORM_INCLUSION_RULES service.
 */
export function registerFormInclusionRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  router.post(
    '/rules/execution/form-inclusion/',
    {
      config: { access: can('execution', 'execute') },
      schema: {
        summary:
          'Runs the deployed form-inclusion rules in force for a policy: which forms its declarations carry and whether each prints.',
        tags: ['rules'],
        security: [{ bearer: [] }],
        body: z.strictObject({
          data: z.strictObject({
            context: z.strictObject({
              product: z.string().max(100).optional(),
              project: z.string().max(100).optional(),
              date: day.optional(),
              state: z
                .string()
                .regex(/^[A-Z]{2}$/, 'A state is two capital letters, such as ME.')
                .nullable()
                .default(null),
              transaction: z.enum(TRANSACTION_KINDS).default('new_business'),
              hasMortgagee: z.boolean().default(false),
              dataPoints: z.record(z.string(), z.unknown()).default({}),
              risk: riskSchema.optional(),
            }),
          }),
        }),
      },
    },
    async (request) => {
      const ctx = request.body.data.context;
      if (!ctx.product && !ctx.project) {
        throw new ApiError(400, 'The context names the product (or the rules project) whose form rules run.', {
          issues: [{ detail: 'Give context.product or context.project.', source: { pointer: '/data/context' } }],
        });
      }
      const answer = await formsInForce(context.db, context.db, {
        line: ctx.product ?? '',
        ...(ctx.project ? { project: ctx.project } : {}),
        asOf: ctx.date ?? new Date().toISOString().slice(0, 10),
        state: ctx.state,
        transaction: ctx.transaction,
        hasMortgagee: ctx.hasMortgagee,
        dataPoints: ctx.dataPoints,
        ...(ctx.risk ? { risk: ctx.risk } : {}),
      });
      return {
        data: {
          forms: answer?.forms ?? [],
          errors: answer?.errors ?? [],
          // null: no deployed form-inclusion rules in force for the product on the date.
          project: answer?.project ?? null,
          effective_date: answer?.effectiveDate ?? null,
        },
      };
    },
  );
}
