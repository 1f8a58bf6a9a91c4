import type { FastifyRequest } from 'fastify';
import { and, count, eq, ilike, ne, sql } from 'drizzle-orm';
import {
  ApiError,
  fieldError,
  notFound,
  z,
  type AtriumRouter,
  type Database,
  type ProblemIssue,
  type Queryable,
} from '@atrium/sdk/server';
import type { Statement } from '../../shared/statement-schema.js';
import type { AccessState } from '../access-state.js';
import { ACCESS_PERMISSIONS } from '../permissions.js';
import { validateStatements } from '../statements/statement-validator.js';
import { policy } from '../tables.js';
import { withUniqueCheck, writeAccess } from './access-write.js';
import { containsPattern, offsetOf, orderByColumns, pageOf, pageQuery, parseOrdering, toPage } from './list-page.js';

/**
 * Policies: `GET/POST policies`, `GET/PUT/PATCH/DELETE policies/{id}`, `POST policies/validations`.
 * System policies come with the installation and cannot be changed or deleted (400, code
 * `system_policy_read_only`): the request is wrong for that policy whoever sends it, so it is not a
 * permission 403, and the editor shows the message in place instead of leaving for /forbidden.
 */
export const VERSION = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;
const tags = ['access'];
const security = [{ bearer: [] }];

export const policyOut = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  date_added: z.string(),
  statements: z.array(z.unknown()),
  type: z.enum(['system', 'custom']),
});
export type PolicyOut = z.infer<typeof policyOut>;

const name = z.string().trim().min(1, 'A policy needs a name.').max(200);
const description = z.string().max(4000);
const version = z.string().regex(VERSION, "Version is written MAJOR.MINOR.PATCH, e.g. '1.2.0'.");
const statements = z.array(z.unknown());
const type = z.enum(['system', 'custom']);
/** Read-only fields a client may send back unchanged when it round-trips a policy. */
const readOnly = { id: z.number().int().optional(), date_added: z.string().optional(), type: type.optional() };

const createBody = z.strictObject({
  name,
  description: description.default(''),
  version: version.default('0.0.0'),
  statements,
  type: type.optional(),
});
const replaceBody = z.strictObject({
  name,
  description: description.default(''),
  version: version.default('0.0.0'),
  statements,
  ...readOnly,
});
const patchBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  version: version.optional(),
  statements: statements.optional(),
  ...readOnly,
});
const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2147483647) });
const listQuery = z.strictObject({ ...pageQuery(15), type: type.optional(), name: z.string().max(200).optional() });
const ORDERING = ['id', 'name', 'version', 'date_added', 'type'] as const;

const validationsOut = z.object({
  valid: z.boolean(),
  errors: z.array(z.object({ detail: z.string(), pointer: z.string(), code: z.string().optional() })),
});

export function toPolicyOut(row: typeof policy.$inferSelect): PolicyOut {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    date_added: row.dateAdded.toISOString(),
    statements: row.statements,
    type: row.type as 'system' | 'custom',
  };
}

const statementsError = (issues: ProblemIssue[]) =>
  new ApiError(400, issues[0]!.detail, { issues, code: 'invalid_statements' });
const duplicateName = (value: string) => fieldError('name', `A policy named '${value}' already exists.`);

function checkStatements(value: unknown): Statement[] {
  const issues = validateStatements(value);
  if (issues.length) throw statementsError(issues);
  return value as Statement[];
}

async function nameTaken(db: Queryable, value: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: policy.id })
    .from(policy)
    .where(
      and(sql`lower(${policy.name}) = lower(${value})`, exceptId === undefined ? undefined : ne(policy.id, exceptId)),
    )
    .limit(1);
  return !!row;
}

async function findPolicy(db: Queryable, id: number) {
  const [row] = await db.select().from(policy).where(eq(policy.id, id)).limit(1);
  if (!row) throw notFound(`Policy ${id} not found.`);
  return row;
}

function checkReadOnly(row: typeof policy.$inferSelect, body: { id?: number; type?: string }) {
  if (row.type === 'system') {
    throw new ApiError(400, `'${row.name}' is a system policy: system policies cannot be changed or deleted.`, {
      code: 'system_policy_read_only',
    });
  }
  if (body.id !== undefined && body.id !== row.id)
    throw fieldError('id', `The id is read-only (this is policy ${row.id}).`);
  if (body.type !== undefined && body.type !== row.type)
    throw fieldError('type', 'The type is read-only: only custom policies can be written.');
}

// Hand-written, not a resource declaration: every access write goes through writeAccess (revision bump, change event, compiled policies forgotten), system policies are never written, and PUT replaces with defaults.
export function policyRoutes(router: AtriumRouter, db: Database, state: AccessState) {
  router.get(
    '/policies',
    {
      config: { access: ACCESS_PERMISSIONS.readPolicy },
      schema: {
        summary: 'Lists policies; filters: type (system|custom), name (contains, any case).',
        description: `Ordering by ${ORDERING.join(', ')}; default id.`,
        tags,
        security,
        querystring: listQuery,
        response: { 200: pageOf(policyOut) },
      },
    },
    async (request) => {
      const query = request.query;
      const ordering = parseOrdering(query.ordering, ORDERING, 'id');
      const where = and(
        query.type ? eq(policy.type, query.type) : undefined,
        query.name ? ilike(policy.name, containsPattern(query.name)) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(policy).where(where);
      const rows = await db
        .select()
        .from(policy)
        .where(where)
        .orderBy(
          ...orderByColumns(
            ordering,
            {
              id: policy.id,
              name: sql`lower(${policy.name})`,
              version: policy.version,
              date_added: policy.dateAdded,
              type: policy.type,
            },
            policy.id,
          ),
        )
        .limit(query.page_size)
        .offset(offsetOf(query));
      return toPage(request.url, query, total?.n ?? 0, rows.map(toPolicyOut));
    },
  );

  router.post(
    '/policies',
    {
      config: { access: ACCESS_PERMISSIONS.createPolicy },
      schema: {
        summary: 'Creates a custom policy. Statement errors point at /statements/{index}/{field}.',
        tags,
        security,
        body: createBody,
        response: { 201: policyOut },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.type === 'system')
        throw fieldError('type', 'System policies come with the installation; create a custom policy.');
      const checked = checkStatements(body.statements);
      if (await nameTaken(db, body.name)) throw duplicateName(body.name);
      const row = await withUniqueCheck(
        () =>
          writeAccess(
            db,
            state,
            async (tx) => {
              const [created] = await tx
                .insert(policy)
                .values({
                  name: body.name,
                  description: body.description,
                  version: body.version,
                  type: 'custom',
                  statements: checked,
                })
                .returning();
              return created!;
            },
            { entity: 'policy', action: 'created', request, describe: (r) => ({ id: String(r.id), name: r.name }) },
          ),
        () => duplicateName(body.name),
      );
      return reply.status(201).send(toPolicyOut(row));
    },
  );

  router.post(
    '/policies/validations',
    {
      config: { access: ACCESS_PERMISSIONS.readPolicy },
      schema: {
        summary: 'Checks a policy (or only its statements) without saving it; answers every problem with its pointer.',
        description:
          'Send the policy as it would be created or updated; include `id` when editing one, so that its own name is not a duplicate.',
        tags,
        security,
        body: z.record(z.string(), z.unknown()),
        response: { 200: validationsOut },
      },
    },
    async (request) => {
      const issues = await validatePolicyDocument(db, request.body);
      return {
        valid: issues.length === 0,
        errors: issues.map((issue) => ({
          detail: issue.detail,
          pointer: issue.source && 'pointer' in issue.source ? issue.source.pointer : '',
          ...(issue.code ? { code: issue.code } : {}),
        })),
      };
    },
  );

  router.get(
    '/policies/:id',
    {
      config: { access: ACCESS_PERMISSIONS.readPolicy },
      schema: { summary: 'One policy.', tags, security, params: idParams, response: { 200: policyOut } },
    },
    async (request) => toPolicyOut(await findPolicy(db, request.params.id)),
  );

  const update = async (id: number, body: z.infer<typeof patchBody>, replace: boolean, request: FastifyRequest) => {
    const row = await findPolicy(db, id);
    checkReadOnly(row, body);
    const checked = body.statements === undefined ? undefined : checkStatements(body.statements);
    if (body.name !== undefined && (await nameTaken(db, body.name, id))) throw duplicateName(body.name);
    const values = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined || replace ? { description: body.description ?? '' } : {}),
      ...(body.version !== undefined || replace ? { version: body.version ?? '0.0.0' } : {}),
      ...(checked !== undefined ? { statements: checked } : {}),
      updatedAt: new Date(),
    };
    const updated = await withUniqueCheck(
      () =>
        writeAccess(
          db,
          state,
          async (tx) => {
            // Re-checked inside the transaction: a system policy is never written.
            const [written] = await tx
              .update(policy)
              .set(values)
              .where(and(eq(policy.id, id), eq(policy.type, 'custom')))
              .returning();
            return written;
          },
          {
            entity: 'policy',
            action: 'updated',
            request,
            describe: (r) => ({ id: String(id), name: r?.name ?? row.name }),
          },
        ),
      () => duplicateName(body.name ?? ''),
    );
    if (!updated) throw notFound(`Policy ${id} not found.`);
    return toPolicyOut(updated);
  };

  router.put(
    '/policies/:id',
    {
      config: { access: ACCESS_PERMISSIONS.updatePolicy },
      schema: {
        summary: 'Replaces a custom policy (omitted description and version go back to their defaults).',
        tags,
        security,
        params: idParams,
        body: replaceBody,
        response: { 200: policyOut },
      },
    },
    async (request) => update(request.params.id, request.body, true, request),
  );

  router.patch(
    '/policies/:id',
    {
      config: { access: ACCESS_PERMISSIONS.updatePolicy },
      schema: {
        summary: 'Changes some fields of a custom policy.',
        tags,
        security,
        params: idParams,
        body: patchBody,
        response: { 200: policyOut },
      },
    },
    async (request) => update(request.params.id, request.body, false, request),
  );

  router.delete(
    '/policies/:id',
    {
      config: { access: ACCESS_PERMISSIONS.deletePolicy },
      schema: { summary: 'Deletes a custom policy and its assignments to roles.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const row = await findPolicy(db, request.params.id);
      checkReadOnly(row, {});
      await writeAccess(
        db,
        state,
        (tx) => tx.delete(policy).where(and(eq(policy.id, row.id), eq(policy.type, 'custom'))),
        { entity: 'policy', action: 'deleted', request, describe: () => ({ id: String(row.id), name: row.name }) },
      );
      return reply.status(204).send();
    },
  );
}

const DOCUMENT_FIELDS = new Set(['id', 'name', 'description', 'version', 'statements', 'type', 'date_added']);

/** Everything wrong with a policy as the editor holds it; an empty list when it would save. */
export async function validatePolicyDocument(
  db: Queryable,
  document: Record<string, unknown>,
): Promise<ProblemIssue[]> {
  const issues: ProblemIssue[] = [];
  const at = (field: string, detail: string, code = 'invalid') =>
    issues.push({ detail, source: { pointer: `/${field}` }, code });
  for (const key of Object.keys(document))
    if (!DOCUMENT_FIELDS.has(key)) at(key, `Unknown field '${key}'.`, 'unrecognized_keys');
  const id = typeof document.id === 'number' && Number.isInteger(document.id) ? document.id : undefined;
  if (document.id !== undefined && id === undefined) at('id', 'The id is a whole number.', 'invalid_type');
  if (document.name !== undefined) {
    if (typeof document.name !== 'string' || !document.name.trim())
      at('name', 'A policy needs a name.', 'invalid_type');
    else if (document.name.trim().length > 200) at('name', 'A policy name has at most 200 characters.', 'too_big');
    else if (await nameTaken(db, document.name.trim(), id))
      at('name', `A policy named '${document.name.trim()}' already exists.`, 'unique');
  }
  if (
    document.description !== undefined &&
    (typeof document.description !== 'string' || document.description.length > 4000)
  ) {
    at('description', 'The description is text of at most 4000 characters.', 'invalid_type');
  }
  if (document.version !== undefined && (typeof document.version !== 'string' || !VERSION.test(document.version))) {
    at('version', "Version is written MAJOR.MINOR.PATCH, e.g. '1.2.0'.", 'invalid_string');
  }
  if (document.type !== undefined && document.type !== 'custom')
    at('type', 'Only custom policies can be written.', 'invalid_value');
  if (id !== undefined) {
    const [existing] = await db
      .select({ type: policy.type, name: policy.name })
      .from(policy)
      .where(eq(policy.id, id))
      .limit(1);
    if (existing?.type === 'system') {
      issues.push({
        detail: `'${existing.name}' is a system policy: system policies cannot be changed or deleted.`,
        source: { pointer: '' },
        code: 'system_policy_read_only',
      });
    }
  }
  if (document.statements === undefined) at('statements', 'Statements are required (a list).', 'required');
  else issues.push(...validateStatements(document.statements));
  return issues;
}
