import type { FastifyRequest } from 'fastify';
import { asc, desc, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  declareResource,
  defineResource,
  defineResourceShape,
  isForeignKeyViolation,
  isUniqueViolation,
  pageOfRows,
  resourceDocument,
  serializeDocument,
  registerResources,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { POLICY_LOOKUP, type PolicySummary } from '@atrium/plugin-policies/services';
import { claimsPermission } from '../permissions.js';
import { claimCoverages, notInForceMessage, policyAccessRecord } from './policy-source.js';
import { claimsCollection } from '../core/collection-routes.js';
import { formatMoney, parseMoney } from '../ledger/money.js';
import { policyStatusShape, policyTypeShape } from '../../shared/collections.js';
import { CLAIMS_BASE, callerOf, claimsAudit, mayAccessRecord, security, tags, writeAudit } from '../core/http-kit.js';
import { mockPolicy, policyRevision, policyStatus, policyType } from '../core/tables.js';

/**
 * The policies integration the FNOL's Policy Search uses: the policies module's policies (when it is
 * installed, through POLICY_LOOKUP, only those of the caller's book) first, then the module's own
 * mock policies (Mock Policies Maintenance, test policies): search by policy number or insured name
 * (pages of 10, newest first), the revision of a policies-module policy in force on a date, create a
 * mock policy with its first revision, read and change revisions, and maintain policy types and
 * statuses.
 */
const BASE = '/integrations/policies';
export const POLICY_SEARCH_PAGE_SIZE = 10;
const DEFAULT_FILE_LABEL = 'Declaration';
const ORDERINGS = ['date_added', '-date_added', 'policy_number', '-policy_number', 'name', '-name'] as const;

const contact = z.record(z.string(), z.unknown());
const file = z.strictObject({
  declaration: z.boolean().optional(),
  title: z.string().max(200),
  label: z.string().max(100).optional(),
  mime_type: z.string().max(100),
  url: z.string().max(2000),
});
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'Enter an amount such as 1000.00 (at most 2 decimal places).');
const coverageItem = z.strictObject({
  coverage_type: z.string().trim().min(1, 'This field is required.').max(100),
  label: z.string().trim().max(200).optional(),
  limit: amount,
  deductible: amount,
  risk: z.string().trim().max(200).default(''),
});
const revisionAttributes = {
  number: z.string().trim().min(1).max(50),
  description: z.string().max(2000).optional(),
  policy_type_id: z.number().int().min(1).nullable().optional(),
  policy_status_id: z.number().int().min(1).nullable().optional(),
  policy_term: z.strictObject({ effective_date: z.iso.date(), expiration_date: z.iso.date() }),
  primary_insured_contact: contact.nullable().optional(),
  named_insured_contacts: z.array(contact).max(50).optional(),
  additional_insured_contacts: z.array(contact).max(50).optional(),
  agency_contact: contact.nullable().optional(),
  agent_contact: contact.nullable().optional(),
  files: z.array(file).max(50).optional(),
  coverages: z.array(coverageItem).max(100).optional(),
};
type RevisionAttributes = { [K in keyof typeof revisionAttributes]?: z.infer<(typeof revisionAttributes)[K]> };

type RevisionRow = typeof policyRevision.$inferSelect;
type RevisionRecord = RevisionRow & {
  policyNumber: string;
  policyTypeName: string | null;
  policyStatusName: string | null;
};

const revisionAttributesOf = (row: RevisionRecord) => ({
  policy_id: row.policyId,
  policy_number: row.policyNumber,
  number: row.number,
  description: row.description,
  policy_type_id: row.policyTypeId,
  policy_type_name: row.policyTypeName,
  policy_status_id: row.policyStatusId,
  policy_status_name: row.policyStatusName,
  policy_term: { effective_date: row.effectiveDate, expiration_date: row.expirationDate },
  effective_date: row.effectiveDate,
  expiration_date: row.expirationDate,
  primary_insured_contact: row.primaryInsuredContact,
  named_insured_contacts: row.namedInsuredContacts,
  additional_insured_contacts: row.additionalInsuredContacts,
  agency_contact: row.agencyContact,
  agent_contact: row.agentContact,
  files: row.files.map((f) => ({ ...f, label: (f.label as string | undefined) || DEFAULT_FILE_LABEL })),
  coverages: row.coverages.map((c) => ({ ...c, label: c.label || c.coverage_type })),
  date_added: row.dateAdded,
});

type PolicyRecord = typeof mockPolicy.$inferSelect & { revisions: RevisionRecord[] };
const policyResource = defineResource<PolicyRecord>({
  type: 'policy',
  id: (row) => String(row.id),
  attributes: (row) => {
    const latest = row.revisions.at(-1);
    return {
      source: 'mock',
      policy_number: row.policyNumber,
      primary_insured: row.insuredName,
      name: row.insuredName,
      policy_type_name: latest?.policyTypeName ?? null,
      policy_status_name: latest?.policyStatusName ?? null,
      date_added: row.dateAdded,
      revisions: row.revisions.map((r) => ({ id: r.id, ...revisionAttributesOf(r) })),
    };
  },
});

/**
 * A policies-module policy in the search: its own type, so that its id never meets a mock policy's;
 * the revision is chosen by the loss date (in-force/), so it lists none.
 */
const realPolicyResource = defineResource<PolicySummary>({
  type: 'insured-policy',
  id: (row) => row.policyId,
  attributes: (row) => ({
    source: 'policies',
    policy_ref: row.policyId,
    policy_number: row.policyNumber,
    primary_insured: row.namedInsured.name,
    name: row.namedInsured.name,
    policy_type_name: null,
    policy_status_name: row.status,
    effective_date: row.termEffectiveDate,
    expiration_date: row.termExpirationDate,
    revisions: [],
  }),
});

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function revisionValues(a: RevisionAttributes): Partial<typeof policyRevision.$inferInsert> {
  const v: Partial<typeof policyRevision.$inferInsert> = {};
  if (a.number !== undefined) v.number = a.number;
  if (a.description !== undefined) v.description = a.description;
  if (a.policy_type_id !== undefined) v.policyTypeId = a.policy_type_id;
  if (a.policy_status_id !== undefined) v.policyStatusId = a.policy_status_id;
  if (a.policy_term !== undefined) {
    v.effectiveDate = a.policy_term.effective_date;
    v.expirationDate = a.policy_term.expiration_date;
  }
  if (a.primary_insured_contact !== undefined) v.primaryInsuredContact = a.primary_insured_contact;
  if (a.named_insured_contacts !== undefined) v.namedInsuredContacts = a.named_insured_contacts;
  if (a.additional_insured_contacts !== undefined) v.additionalInsuredContacts = a.additional_insured_contacts;
  if (a.agency_contact !== undefined) v.agencyContact = a.agency_contact;
  if (a.agent_contact !== undefined) v.agentContact = a.agent_contact;
  if (a.files !== undefined) v.files = a.files;
  if (a.coverages !== undefined) {
    v.coverages = a.coverages.map((c) => ({
      ...c,
      label: c.label || c.coverage_type,
      limit: formatMoney(parseMoney(c.limit)),
      deductible: formatMoney(parseMoney(c.deductible)),
      risk: c.risk ?? '',
    }));
  }
  return v;
}

/** Rules across a revision's values: a term that ends before it starts, a coverage listed twice. */
function checkRevision(v: Partial<typeof policyRevision.$inferInsert>) {
  if (v.effectiveDate !== undefined && v.expirationDate! < v.effectiveDate) {
    throw attributeError('policy_term', 'The expiration date must not be before the effective date.');
  }
  const types = (v.coverages ?? []).map((c) => c.coverage_type);
  const twice = types.find((t, i) => types.indexOf(t) !== i);
  if (twice) throw attributeError('coverages', `Coverage ${twice} is listed twice.`);
  return v;
}

const FOREIGN_KEY_DETAIL = 'The policy type or status does not exist.';

/** Revisions with their policy's number and their type's and status's names. */
async function hydrateRevisions(db: Queryable, rows: RevisionRow[]): Promise<RevisionRecord[]> {
  if (rows.length === 0) return [];
  const [policies, types, statuses] = await Promise.all([
    db
      .select({ id: mockPolicy.id, number: mockPolicy.policyNumber })
      .from(mockPolicy)
      .where(
        inArray(
          mockPolicy.id,
          rows.map((r) => r.policyId),
        ),
      ),
    db.select().from(policyType),
    db.select().from(policyStatus),
  ]);
  return rows.map((r) => ({
    ...r,
    policyNumber: policies.find((p) => p.id === r.policyId)?.number ?? '',
    policyTypeName: types.find((t) => t.id === r.policyTypeId)?.name ?? null,
    policyStatusName: statuses.find((s) => s.id === r.policyStatusId)?.name ?? null,
  }));
}

/** A revision is read and changed one at a time; the search lists a policy's revisions inside it. */
const revisionDeclaration = declareResource({
  shape: defineResourceShape({
    type: 'policy-revision',
    path: `/claims${BASE}/revisions/`,
    style: 'jsonapi',
    attributes: revisionAttributes,
  }),
  table: policyRevision,
  permission: { resource: claimsPermission('policy', 'read').resource },
  without: ['list', 'create', 'delete'],
  omitEmptyRelationships: true,
  present: (row) => revisionAttributesOf(row as RevisionRecord),
  toColumns: (attributes) => revisionValues(attributes as RevisionAttributes),
  hooks: {
    expand: (rows, call) => hydrateRevisions(call.db, rows as RevisionRow[]),
    // Checked once the revision is found: a missing one is a 404 whatever the body says.
    validate: async (values, call) => {
      await call.before();
      checkRevision(values);
    },
  },
  messages: { notFound: (id) => `Policy revision ${id} not found.`, foreignKey: { detail: FOREIGN_KEY_DETAIL } },
  audit: claimsAudit.forResource(),
  openapi: {
    summary: 'policy revisions',
    tags,
    security,
    summaries: {
      find: 'One policy revision (term, insureds, agency and agent, files, coverages: coverage_type, label, limit, deductible, risk).',
      update: 'Changes a policy revision.',
    },
  },
});

export function policiesRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  /**
   * The FNOL's policy search and in-force revision serve whoever reads policies (claims handlers,
   * Mock Policies Maintenance) and whoever reports claims (agents and agencies, who may not read
   * the mock policies' admin but file FNOLs on the policies of their book).
   */
  const requirePolicySearch = async (request: FastifyRequest) => {
    for (const permission of [claimsPermission('policy', 'read'), claimsPermission('claim', 'create')]) {
      const evaluation = await context.services.evaluator?.evaluate(request.principal!, permission);
      if (evaluation?.allowed) return permission.action === 'read';
    }
    throw new ApiError(403, 'You do not have permission to search policies.');
  };

  /** The policies module's policies matching the search that the caller's claims record scope allows. */
  const realPolicies = async (
    request: FastifyRequest,
    policyNumber: string | undefined,
    name: string | undefined,
    limit: number,
  ): Promise<PolicySummary[]> => {
    const lookup = context.optionalService(POLICY_LOOKUP);
    if (!lookup) return [];
    const searches = [policyNumber, name].filter((v): v is string => v !== undefined);
    // The service answers at most 100; asked for many, so that the book's own survive the scope filter.
    const found = (
      await Promise.all(
        (searches.length ? searches : ['']).map((search) => lookup.searchPolicies(db, { search, limit: 100 })),
      )
    ).flat();
    const unique = [...new Map(found.map((p) => [p.policyId, p])).values()];
    const allowed: PolicySummary[] = [];
    for (const summary of unique) {
      if (allowed.length >= limit) break;
      if (await mayAccessRecord(context, request, claimsPermission('claim', 'read'), policyAccessRecord(summary))) {
        allowed.push(summary);
      }
    }
    return allowed;
  };

  router.get(
    `${BASE}/in-force/`,
    {
      config: { jsonapi: true, access: 'authenticated' },
      schema: {
        summary:
          "A policies-module policy's revision in force on a date, with its coverages (the FNOL's policy and loss date).",
        tags,
        security,
        querystring: z.strictObject({ policy_ref: z.string().trim().min(1).max(40), date: z.iso.date() }),
      },
    },
    async (request) => {
      await requirePolicySearch(request);
      const { policy_ref: ref, date } = request.query;
      const lookup = context.optionalService(POLICY_LOOKUP);
      const atDate = lookup ? await lookup.policyAtDate(db, ref, date) : null;
      if (
        !atDate ||
        !(await mayAccessRecord(context, request, claimsPermission('claim', 'read'), policyAccessRecord(atDate)))
      ) {
        throw new ApiError(400, notInForceMessage(date), { source: { parameter: 'date' } });
      }
      return {
        data: {
          type: 'policy-in-force',
          id: atDate.revisionId,
          attributes: {
            policy_ref: atDate.policyId,
            policy_number: atDate.policyNumber,
            primary_insured: atDate.namedInsured.name,
            policy_status_name: atDate.status,
            revision_number: atDate.revisionNumber,
            effective_date: atDate.termEffectiveDate,
            expiration_date: atDate.termExpirationDate,
            coverages: claimCoverages(atDate),
          },
        },
      };
    },
  );

  router.get(
    `${BASE}/search/`,
    {
      config: { jsonapi: true, access: 'authenticated' },
      schema: {
        summary:
          "Searches the policies module's policies (first page, the caller's book), then mock policies by policyNumber (part, any case) or name (primary insured); pages of 10, newest first.",
        tags,
        security,
        querystring: z.strictObject({
          page: z.coerce.number().int().min(1).default(1),
          page_size: z.coerce.number().int().min(1).max(100).default(POLICY_SEARCH_PAGE_SIZE),
          orderBy: z.enum(ORDERINGS).default('-date_added'),
          policyNumber: z.string().max(100).optional(),
          name: z.string().max(200).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      // Agents and agencies (who report claims but do not read the mock policies' admin) find only real policies.
      const readsMock = await requirePolicySearch(request);
      const conditions: SQL[] = [];
      if (q.policyNumber) conditions.push(ilike(mockPolicy.policyNumber, `%${escapeLike(q.policyNumber)}%`));
      if (q.name) conditions.push(ilike(mockPolicy.insuredName, `%${escapeLike(q.name)}%`));
      const where = !readsMock ? sql`false` : conditions.length ? or(...conditions) : undefined;
      const key = q.orderBy.replace('-', '');
      const column =
        key === 'policy_number'
          ? mockPolicy.policyNumber
          : key === 'name'
            ? mockPolicy.insuredName
            : mockPolicy.dateAdded;
      const { rows, links, meta } = await pageOfRows(db, mockPolicy, {
        where,
        orderBy: [q.orderBy.startsWith('-') ? desc(column) : asc(column), desc(mockPolicy.id)],
        page: { number: q.page, size: q.page_size, offset: (q.page - 1) * q.page_size },
        path: `${CLAIMS_BASE}${BASE}/search/`,
        query: q,
      });
      const revisions = rows.length
        ? await hydrateRevisions(
            db,
            await db
              .select()
              .from(policyRevision)
              .where(
                inArray(
                  policyRevision.policyId,
                  rows.map((r) => r.id),
                ),
              )
              .orderBy(asc(policyRevision.id)),
          )
        : [];
      const records = rows.map((row) => ({ ...row, revisions: revisions.filter((r) => r.policyId === row.id) }));
      const mockDocument = await serializeDocument(policyResource, records, { links, meta });
      // The policies module's policies come first, on the first page only (the pages count the mock ones).
      const real = q.page === 1 ? await realPolicies(request, q.policyNumber, q.name, q.page_size) : [];
      if (real.length === 0) return mockDocument;
      const realDocument = (await serializeDocument(realPolicyResource, real)) as { data: unknown[] };
      const document = mockDocument as unknown as { data: unknown[]; meta?: Record<string, unknown> };
      return {
        ...document,
        data: [...realDocument.data, ...document.data],
        meta: { ...document.meta, policies_count: real.length },
      };
    },
  );

  router.post(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('policy', 'create') },
      schema: {
        summary: 'Creates a mock policy with its first revision.',
        tags,
        security,
        body: resourceDocument('policy', {
          policy_number: z.string().trim().min(1).max(50),
          insured_name: z.string().trim().min(1).max(200),
          revision: z.strictObject(revisionAttributes),
        }),
      },
    },
    async (request, reply) => {
      const a = request.body.data.attributes;
      for (const field of ['policy_number', 'insured_name', 'revision'] as const) {
        if (!a?.[field]) throw attributeError(field, 'This field is required.');
      }
      const created = await db
        .transaction(async (tx) => {
          const [policy] = await tx
            .insert(mockPolicy)
            .values({ policyNumber: a!.policy_number, insuredName: a!.insured_name })
            .returning();
          const [revision] = await tx
            .insert(policyRevision)
            .values({
              ...checkRevision(revisionValues(a!.revision)),
              policyId: policy!.id,
            } as typeof policyRevision.$inferInsert)
            .returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'create',
            entityType: 'policy',
            entityId: policy!.id,
            after: { policy, revision },
          });
          return { ...policy!, revisions: [revision!] };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error))
            throw attributeError('policy_number', 'A policy with this number already exists.');
          if (isForeignKeyViolation(error)) {
            throw new ApiError(400, FOREIGN_KEY_DETAIL, { source: { pointer: '/data/attributes' } });
          }
          throw error;
        });
      reply.status(201);
      return serializeDocument(policyResource, {
        ...created,
        revisions: await hydrateRevisions(db, created.revisions),
      });
    },
  );

  registerResources(router, context, [
    revisionDeclaration,
    claimsCollection({
      shape: policyTypeShape,
      table: policyType,
      thing: 'policy',
      summary: 'policy types (Mock Policies Maintenance)',
      uniqueAttribute: 'name',
    }),
    claimsCollection({
      shape: policyStatusShape,
      table: policyStatus,
      thing: 'policy',
      summary: 'policy statuses (Mock Policies Maintenance)',
      uniqueAttribute: 'name',
    }),
  ]);
}
