import { and, asc, desc, eq, ne } from 'drizzle-orm';
import {
  badRequest,
  emitEvent,
  fieldError,
  z,
  type AtriumRouter,
  type ServerPluginContext,
  type Database,
  type Queryable,
} from '@atrium/sdk/server';
import { productVersionPublished, productVersionRetired } from '../events.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { product, productVersion, ROUNDING_MODE_VALUES } from '../tables.js';
import { copyVersionDefinition } from './copy-version.js';
import { NEXT_STATUSES, versionOut } from './product-out.js';
import { runBeforePublish } from './publish-hooks.js';
import { checkPublishImpact } from './publish-impact-hook.js';
import { findProduct, id, isoDate, productParam, versionOf } from './scope.js';
import { assertDraftVersion } from './version-guard.js';

/**
 * Versions of a product: `GET/POST products/{p}/versions/`, `PUT/DELETE products/{p}/versions/{v}/`,
 * `PATCH …/{v}/status/`, `POST …/{v}/reinstate/`.
 *
 * Statuses: a new version is a `draft` (the only editable status; one per product). `draft →
 * published` runs the beforePublish hooks (known-answer cases) in the same transaction; `published →
 * retired`; a retired version comes back with reinstate (`retired → published`). Only a draft can be
 * deleted. Creating a version copies the latest version's whole definition, in one transaction.
 */
const tags = ['lines'];
const params = z.strictObject({ product: productParam });
const versionParams = z.strictObject({ product: productParam, version: id });
const createBody = z.strictObject({
  effective_date: isoDate.optional(),
  label: z.string().trim().min(1).max(50).optional(),
  /** Copy this version instead of the latest one. */
  from_version_id: id.optional(),
});
const putBody = z.strictObject({
  id: z.number().int().optional(),
  effective_date: isoDate,
  label: z.string().trim().min(1).max(50).optional(),
  premium_rounding: z
    .strictObject({ places: z.number().int().min(0).max(10), mode: z.enum(ROUNDING_MODE_VALUES).optional() })
    .optional(),
});
const statusBody = z.strictObject({
  status: z.enum(['draft', 'published', 'retired']),
  /** Publish although rules would break (the 409 `publish_impact` list has been shown). */
  acknowledgeImpact: z.boolean().optional(),
});

// Hand-written, not a resource declaration: a version is created by copying the whole definition, moves through statuses with publish hooks and events, and only a draft is deleted.
export function versionRoutes(router: AtriumRouter, db: Database, context: ServerPluginContext) {
  router.get(
    '/lines/products/:product/versions/',
    {
      config: { access: LINES_PERMISSIONS.version.read },
      schema: { summary: 'Lists a product’s versions, oldest first.', tags, params },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const rows = await db
        .select()
        .from(productVersion)
        .where(eq(productVersion.productId, row.id))
        .orderBy(asc(productVersion.number));
      return { count: rows.length, results: rows.map(versionOut) };
    },
  );

  router.get(
    '/lines/products/:product/versions/:version/',
    {
      config: { access: LINES_PERMISSIONS.version.read },
      schema: { summary: 'One version.', tags, params: versionParams },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      return versionOut(await versionOf(db, row, request.params.version));
    },
  );

  router.post(
    '/lines/products/:product/versions/',
    {
      config: { access: LINES_PERMISSIONS.version.create },
      schema: {
        summary: 'Creates a draft version, copying the latest (or from_version_id) version’s whole definition.',
        tags,
        params,
        body: createBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await findProduct(db, request.params.product);
      const created = await db.transaction(async (tx) => {
        const [draft] = await tx
          .select({ number: productVersion.number })
          .from(productVersion)
          .where(and(eq(productVersion.productId, row.id), eq(productVersion.status, 'draft')))
          .limit(1);
        if (draft) {
          throw badRequest(
            `${row.label} already has a draft (version ${draft.number}); publish or delete it before creating another.`,
          );
        }
        const [latest] = await tx
          .select()
          .from(productVersion)
          .where(eq(productVersion.productId, row.id))
          .orderBy(desc(productVersion.number))
          .limit(1);
        const source = body.from_version_id ? await versionOf(tx, row, body.from_version_id) : latest;
        const number = (latest?.number ?? 0) + 1;
        const [version] = await tx
          .insert(productVersion)
          .values({
            productId: row.id,
            parentVersionId: source?.parentVersionId ?? null,
            copiedFromVersionId: source?.id ?? null,
            number,
            label: body.label ?? String(number),
            status: 'draft',
            effectiveDate: body.effective_date ?? source?.effectiveDate ?? new Date().toISOString().slice(0, 10),
            premiumRoundingPlaces: source?.premiumRoundingPlaces ?? 2,
            premiumRoundingMode: source?.premiumRoundingMode ?? 'half-up',
          })
          .returning();
        if (source) await copyVersionDefinition(tx, source.id, version!.id);
        return version!;
      });
      reply.code(201);
      return versionOut(created);
    },
  );

  router.put(
    '/lines/products/:product/versions/:version/',
    {
      config: { access: LINES_PERMISSIONS.version.update },
      schema: {
        summary: 'Changes a draft version’s effective date, label and premium rounding.',
        tags,
        params: versionParams,
        body: putBody,
      },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.params.version);
      await assertDraftVersion(db, version.id);
      const body = request.body;
      const [updated] = await db
        .update(productVersion)
        .set({
          effectiveDate: body.effective_date,
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.premium_rounding
            ? {
                premiumRoundingPlaces: body.premium_rounding.places,
                premiumRoundingMode: body.premium_rounding.mode ?? 'half-up',
              }
            : {}),
          updatedAt: new Date(),
        })
        .where(eq(productVersion.id, version.id))
        .returning();
      return versionOut(updated!);
    },
  );

  router.patch(
    '/lines/products/:product/versions/:version/status/',
    {
      config: { access: LINES_PERMISSIONS.version.publish },
      schema: {
        summary:
          'Moves a version to the next status: draft → published (known answers must hold), published → retired.',
        tags,
        params: versionParams,
        body: statusBody,
      },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.params.version);
      const next = request.body.status;
      if (!NEXT_STATUSES[version.status].includes(next)) {
        const hint =
          version.status === 'retired' && next === 'published'
            ? ' Reinstate it instead.'
            : next === 'draft'
              ? ' Create a new version to make changes.'
              : '';
        throw fieldError(
          'status',
          `Version ${version.number} of ${row.label} is ${version.status}; it cannot become ${next}.${hint}`,
        );
      }
      if (next === 'published' && version.parentVersionId !== null) {
        // A published child must not change under its users: what it inherits must be published too.
        const [parentVersion] = await db
          .select({ number: productVersion.number, status: productVersion.status, label: product.label })
          .from(productVersion)
          .innerJoin(product, eq(product.id, productVersion.productId))
          .where(eq(productVersion.id, version.parentVersionId));
        if (parentVersion && parentVersion.status === 'draft') {
          throw badRequest(
            `${row.label} builds on version ${parentVersion.number} of ${parentVersion.label}, which is still a draft; publish that first.`,
          );
        }
      }
      const updated = await db.transaction(async (tx) => {
        if (next === 'published') {
          const publishing = {
            tx,
            productId: row.id,
            versionId: version.id,
            acknowledgeImpact: request.body.acknowledgeImpact === true,
          };
          await runBeforePublish(publishing);
          // This server's own check (its rules module), not a process-wide hook: a process may run
          // several servers (tests), and a hook registered by one must not run for another.
          await checkPublishImpact(context, publishing);
        }
        const now = new Date();
        const [changed] = await tx
          .update(productVersion)
          .set({
            status: next,
            ...(next === 'published' ? { publishedAt: now } : { retiredAt: now }),
            updatedAt: now,
          })
          .where(eq(productVersion.id, version.id))
          .returning();
        await emitVersionEvent(tx, row, changed!, request.principal.username);
        return changed!;
      });
      return versionOut(updated);
    },
  );

  router.post(
    '/lines/products/:product/versions/:version/reinstate/',
    {
      config: { access: LINES_PERMISSIONS.version.publish },
      schema: { summary: 'Reinstates a retired version (retired → published).', tags, params: versionParams },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.params.version);
      if (version.status !== 'retired') {
        throw badRequest(
          `Version ${version.number} of ${row.label} is ${version.status}; only a retired version can be reinstated.`,
        );
      }
      const updated = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(productVersion)
          .set({ status: 'published', retiredAt: null, updatedAt: new Date() })
          .where(eq(productVersion.id, version.id))
          .returning();
        await emitVersionEvent(tx, row, changed!, request.principal.username);
        return changed!;
      });
      return versionOut(updated);
    },
  );

  router.delete(
    '/lines/products/:product/versions/:version/',
    {
      config: { access: LINES_PERMISSIONS.version.delete },
      schema: { summary: 'Deletes a draft version (not a product’s only version).', tags, params: versionParams },
    },
    async (request, reply) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.params.version);
      if (version.status !== 'draft') {
        throw badRequest(
          `Version ${version.number} of ${row.label} is ${version.status}; only a draft version can be deleted.`,
        );
      }
      const [other] = await db
        .select({ id: productVersion.id })
        .from(productVersion)
        .where(and(eq(productVersion.productId, row.id), ne(productVersion.id, version.id)))
        .limit(1);
      if (!other) {
        throw badRequest(`Version ${version.number} is the only version of ${row.label}; delete the product instead.`);
      }
      const [child] = await db
        .select({ label: product.label })
        .from(productVersion)
        .innerJoin(product, eq(product.id, productVersion.productId))
        .where(eq(productVersion.parentVersionId, version.id))
        .limit(1);
      if (child) {
        throw badRequest(`${child.label} builds on version ${version.number} of ${row.label}; it cannot be deleted.`);
      }
      await db.delete(productVersion).where(eq(productVersion.id, version.id));
      reply.code(204);
    },
  );
}

/** lines.product-version.published / .retired, in the status change's transaction. */
async function emitVersionEvent(
  tx: Queryable,
  owner: { id: number; label: string },
  version: typeof productVersion.$inferSelect,
  username: string,
): Promise<void> {
  if (version.status !== 'published' && version.status !== 'retired') return;
  await emitEvent(
    tx,
    version.status === 'published' ? productVersionPublished : productVersionRetired,
    {
      product_id: String(owner.id),
      product_label: owner.label,
      version_id: String(version.id),
      version_number: version.number,
      version_label: version.label,
      effective_date: String(version.effectiveDate),
      status: version.status,
    },
    { triggeringUser: username },
  );
}
