import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import {
  ApiError,
  defineResource,
  pageQuerySchema,
  paginationLinks,
  resourceDocument,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../../permissions.js';
import type { AuthorityLimitRow } from '../ledger-store.js';
import { LEDGER_BASE } from '../resources.js';
import { authorityLimit } from '../tables.js';
import { idParams, moneyText } from './schemas.js';

/**
 * CRUD of authority-limits/ for administrators (claims:authority-limit; the Claims handling system
 * policy denies adjusters the writes). One row per subject (user name or role) and kind.
 */
const tags = ['claims', 'claims-ledger'];
const security = [{ bearer: [] }];

const resource = defineResource<AuthorityLimitRow>({
  type: 'authority-limits',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/authority-limits/`,
  attributes: (r) => ({
    subject_type: r.subjectType,
    subject: r.subject,
    kind: r.kind,
    per_transaction: r.perTransaction,
    per_coverage: r.perCoverage,
    per_claim: r.perClaim,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }),
});

const cap = (label: string) => moneyText(label, { min: '0.00' }).nullable();
const attributes = {
  subject_type: z.enum(['user', 'role'], { error: "Subject type must be 'user' or 'role'." }),
  subject: z.string().trim().min(1, 'This field may not be blank.').max(200),
  kind: z.enum(['reserve', 'payment'], { error: "Kind must be 'reserve' or 'payment'." }),
  per_transaction: cap('Per transaction').optional(),
  per_coverage: cap('Per coverage').optional(),
  per_claim: cap('Per claim').optional(),
};

const EXISTS = 'An authority limit for this subject and kind already exists.';

function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 4;
    depth++
  ) {
    if (current.code === '23505') return true;
    current = current.cause as typeof current;
  }
  return false;
}

function columnsOf(a: Partial<Record<keyof typeof attributes, string | null | undefined>>) {
  return {
    ...(a.subject_type !== undefined ? { subjectType: a.subject_type! } : {}),
    ...(a.subject !== undefined ? { subject: a.subject! } : {}),
    ...(a.kind !== undefined ? { kind: a.kind! } : {}),
    ...(a.per_transaction !== undefined ? { perTransaction: a.per_transaction } : {}),
    ...(a.per_coverage !== undefined ? { perCoverage: a.per_coverage } : {}),
    ...(a.per_claim !== undefined ? { perClaim: a.per_claim } : {}),
  };
}

// Hand-written, not a resource declaration (yet): listed in subject type, subject, kind order (a declaration orders by one column) and a taken subject and kind is a 409 with code 'duplicate'.
export function registerAuthorityLimitRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  const load = async (id: number) => {
    const [row] = await db.select().from(authorityLimit).where(eq(authorityLimit.id, id));
    if (!row) throw new ApiError(404, `Authority limit ${id} not found.`);
    return row;
  };
  const duplicate = () =>
    new ApiError(409, EXISTS, { source: { pointer: '/data/attributes/subject' }, code: 'duplicate' });

  router.get(
    '/authority-limits/',
    {
      config: { jsonapi: true, access: claimsPermission('authority-limit', 'read') },
      schema: {
        summary: 'Lists authority limits; filter by subject_type, subject, kind.',
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(250),
          'filter[subject_type]': attributes.subject_type.optional(),
          'filter[subject]': z.string().max(200).optional(),
          'filter[kind]': attributes.kind.optional(),
        }),
      },
    },
    async (request) => {
      const query = request.query;
      const page = toPageRequest(query);
      const conditions: SQL[] = [];
      if (query['filter[subject_type]']) conditions.push(eq(authorityLimit.subjectType, query['filter[subject_type]']));
      if (query['filter[subject]']) conditions.push(eq(authorityLimit.subject, query['filter[subject]']));
      if (query['filter[kind]']) conditions.push(eq(authorityLimit.kind, query['filter[kind]']));
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const [total] = await db.select({ n: count() }).from(authorityLimit).where(where);
      const rows = await db
        .select()
        .from(authorityLimit)
        .where(where)
        .orderBy(asc(authorityLimit.subjectType), asc(authorityLimit.subject), asc(authorityLimit.kind))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${LEDGER_BASE}/authority-limits/`, query, page, total?.n ?? 0);
      return serializeDocument(resource, rows, { links, meta });
    },
  );

  router.get(
    '/authority-limits/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('authority-limit', 'read') },
      schema: { summary: 'One authority limit.', tags, security, params: idParams },
    },
    async (request) => serializeDocument(resource, await load(Number(request.params.id))),
  );

  router.post(
    '/authority-limits/',
    {
      config: { jsonapi: true, access: claimsPermission('authority-limit', 'create') },
      schema: {
        summary: 'Creates an authority limit (null or absent caps: no cap).',
        tags,
        security,
        body: resourceDocument('authority-limits', attributes),
      },
    },
    async (request, reply) => {
      const a = request.body.data.attributes;
      for (const field of ['subject_type', 'subject', 'kind'] as const) {
        if (a?.[field] === undefined) {
          throw new ApiError(400, 'This field is required.', {
            source: { pointer: `/data/attributes/${field}` },
            code: 'required',
          });
        }
      }
      try {
        const [row] = await db
          .insert(authorityLimit)
          .values(columnsOf(a!) as typeof authorityLimit.$inferInsert)
          .returning();
        reply.status(201);
        return serializeDocument(resource, row!);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
    },
  );

  router.patch(
    '/authority-limits/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('authority-limit', 'update') },
      schema: {
        summary: 'Changes an authority limit.',
        tags,
        security,
        params: idParams,
        body: resourceDocument(
          'authority-limits',
          {
            ...attributes,
            subject_type: attributes.subject_type.optional(),
            subject: attributes.subject.optional(),
            kind: attributes.kind.optional(),
          },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      if (request.body.data.id !== request.params.id) {
        throw new ApiError(409, 'The id in the body does not match the URL.', { source: { pointer: '/data/id' } });
      }
      const id = Number(request.params.id);
      await load(id);
      try {
        await db
          .update(authorityLimit)
          .set({ ...columnsOf(request.body.data.attributes ?? {}), updatedAt: new Date() })
          .where(eq(authorityLimit.id, id));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
      return serializeDocument(resource, await load(id));
    },
  );

  router.delete(
    '/authority-limits/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('authority-limit', 'delete') },
      schema: { summary: 'Deletes an authority limit.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      await load(id);
      await db.delete(authorityLimit).where(eq(authorityLimit.id, id));
      reply.status(204);
      return null;
    },
  );
}
