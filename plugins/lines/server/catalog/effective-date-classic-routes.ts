import { asc, eq, ne } from 'drizzle-orm';
import { notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { line, product, productVersion } from '../tables.js';

/**
 * The classic portal's effective-date calls (spec, classic and utility calls):
 * `POST /api/v2/lines/get_all_effective_dates` and `POST /api/v2/lines/retrieve_effective_date
 * {effective_date_id}`, in the classic envelope `{ success, data }`. An effective date is a product
 * version's: the day it takes effect, with its product, line, number, label and status. Drafts are
 * not listed (they take effect nowhere until published); retired versions are, with their status,
 * because policies written on them still refer to them.
 */
const tags = ['lines: classic'];

const effectiveDateOut = z.object({
  id: z.number(),
  effective_date: z.string(),
  status: z.string(),
  version: z.number(),
  label: z.string(),
  product_id: z.number(),
  product_name: z.string(),
  product_label: z.string(),
  line_id: z.number(),
  line_name: z.string(),
});
const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export function effectiveDateClassicRoutes(router: AtriumRouter, db: Database) {
  const select = () =>
    db
      .select({
        id: productVersion.id,
        effective_date: productVersion.effectiveDate,
        status: productVersion.status,
        version: productVersion.number,
        label: productVersion.label,
        product_id: product.id,
        product_name: product.name,
        product_label: product.label,
        line_id: line.id,
        line_name: line.name,
      })
      .from(productVersion)
      .innerJoin(product, eq(product.id, productVersion.productId))
      .innerJoin(line, eq(line.id, product.lineId));

  router.post(
    '/v2/lines/get_all_effective_dates',
    {
      config: { access: LINES_PERMISSIONS.version.read },
      schema: {
        summary: 'Every published or retired product version’s effective date, by line, product and date.',
        tags,
        body: z.strictObject({}).optional(),
        response: { 200: envelope(z.array(effectiveDateOut)) },
      },
    },
    async () => ({
      success: true as const,
      data: await select()
        .where(ne(productVersion.status, 'draft'))
        .orderBy(asc(line.name), asc(product.name), asc(productVersion.effectiveDate), asc(productVersion.number)),
    }),
  );

  router.post(
    '/v2/lines/retrieve_effective_date',
    {
      config: { access: LINES_PERMISSIONS.version.read },
      schema: {
        summary: 'One product version’s effective date by its id (effective_date_id).',
        tags,
        body: z.strictObject({
          effective_date_id: z.coerce
            .number()
            .int()
            .min(1)
            .max(2 ** 31 - 1),
        }),
        response: { 200: envelope(effectiveDateOut) },
      },
    },
    async (request) => {
      const [row] = await select().where(eq(productVersion.id, request.body.effective_date_id)).limit(1);
      if (!row || row.status === 'draft') throw notFound(`Effective date ${request.body.effective_date_id} not found.`);
      return { success: true as const, data: row };
    },
  );
}
