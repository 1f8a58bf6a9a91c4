import { createHash } from 'node:crypto';
import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiError,
  conflict,
  createServiceRef,
  notFound,
  recordFilterToSql,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { DATA_POINTS, DATA_POINTS_VERSION, SAMPLES, unresolvedPaths } from '../shared/data-points.js';
import { POLICY_DECLARATIONS_SOURCE } from '../shared/services.js';
import { CLAIM_LOOKUP } from '@atrium/plugin-claims/lookup';
import { QUOTE_LOOKUP } from '@atrium/plugin-quote/lookup';
import { HELPER_FUNCTIONS } from '../shared/helpers.js';
import { SUBJECT_MESSAGE, SUBJECTS, type Subject } from '../shared/shapes.js';
import { can } from './permissions.js';
import { rendererVersion, type RenderPool } from './render/pool.js';
import { renderOn } from './render/shared-pool.js';
import { assemble, type AssemblyPart } from './declarations/assembly.js';
import { formPdfReader } from './declarations/declarations-service.js';
import { FormError } from './forms/acroform.js';
import { filesOf, gatherInputs, type RenderInputs } from './library/inputs.js';
import { productionDocument, template, version } from './tables.js';
import { noVersionInForce, versionInForce } from './version-in-force.js';
import { emailStateOf, mailStates, PRINT_STATES } from './delivery/delivery-states.js';

/**
 * The hand-written documents routes (docs/documents.md): versions (a status machine — a published
 * version is frozen), previews, production documents and data points. Folders and templates are
 * declared resources (resources.ts). Plain JSON, like the second spec file's other payloads.
 */
const tags = ['documents'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Not a valid date.',
  );
const source = z.string().max(200_000, 'A template source is at most 200,000 characters.');
const data = z.record(z.string(), z.unknown());

/** The records a production document can be rendered for, and the resource their module reads them as. */
export const RECORD_TYPES = ['policy', 'claim', 'quote'] as const;
type RecordType = (typeof RECORD_TYPES)[number];
const RECORD_RESOURCES: Record<RecordType, string> = {
  policy: 'policies:policy',
  claim: 'claims:claim',
  quote: 'quote:quote',
};
const contactId = z.string().trim().min(1).max(64).nullable().optional();
const recordRef = z.strictObject({
  type: z.enum(RECORD_TYPES, { message: "The record type must be 'policy', 'claim' or 'quote'." }),
  id: z.string().trim().min(1, 'A record id is required.').max(64),
  agent_contact_id: contactId,
  agency_contact_id: contactId,
});

/**
 * The policies module's lookup service, by its id (`policies.lookup`), narrowed to what documents
 * uses: the book of a policy comes from its owner when that module is installed.
 */
type PolicyBookLookup = {
  /** Policies whose number or named insured contains the text, newest first (the preview's record picker). */
  searchPolicies(
    tx: Queryable,
    query: { search: string; limit: number },
  ): Promise<{ policyId: string; policyNumber: string; productSlug: string; namedInsured: { name: string } }[]>;
  getPolicy(
    tx: Queryable,
    policyId: string,
  ): Promise<{ agentContactId: string | null; agencyContactId: string | null } | null>;
};
const POLICY_LOOKUP = createServiceRef<PolicyBookLookup>('policies.lookup');

/** What the access evaluator sees of a production document's record (`record.agent_contact_id` …). */
const bookColumns = {
  agent_contact_id: productionDocument.agentContactId,
  agency_contact_id: productionDocument.agencyContactId,
};

type VersionRow = typeof version.$inferSelect;
type DocumentRow = typeof productionDocument.$inferSelect;

/** What other documents routes (print and e-mail) use of these: the caller's read scope. */
export interface DocumentReads {
  readScope(request: FastifyRequest): Promise<SQL>;
  findDocument(
    request: FastifyRequest,
    documentId: number,
  ): Promise<{ doc: DocumentRow; number: number; name: string; templateName: string }>;
}

function versionView(row: VersionRow) {
  return {
    id: row.id,
    template_id: row.templateId,
    number: row.number,
    name: row.name,
    description: row.description,
    effective_date: row.effectiveDate,
    status: row.status,
    source: row.source,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    published_by: row.publishedBy,
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

/** How a document's record reads on screen: the number its own data carries (`policy.number` …). */
function recordLabel(row: DocumentRow): string | null {
  if (!row.recordType) return null;
  const data = row.data as Record<string, { number?: unknown } | undefined>;
  const number = data[row.recordType]?.number;
  const kind = row.recordType === 'policy' ? 'Policy' : row.recordType === 'claim' ? 'Claim' : 'Quote';
  return typeof number === 'string' && number ? `${kind} ${number}` : kind;
}

export function documentView(row: DocumentRow, v: Pick<VersionRow, 'number' | 'name'> & { templateName: string }) {
  return {
    id: row.id,
    title: `${v.templateName} (${row.documentDate})`,
    template_id: row.templateId,
    version_id: row.versionId,
    version_number: v.number,
    version_name: v.name,
    document_date: row.documentDate,
    renderer_version: row.rendererVersion,
    sha256: row.sha256,
    page_count: row.pageCount,
    record: row.recordType ? { type: row.recordType, id: row.recordId, label: recordLabel(row) } : null,
    purpose: row.purpose,
    forms: (row.parts as AssemblyPart[]).map((p) => p.name),
    print_state: row.printState,
    print_state_by: row.printStateBy,
    print_state_at: row.printStateAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function registerDocumentRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  pool: () => RenderPool,
): DocumentReads {
  const { db } = context;

  /** Renders source with the components and assets it names (read now). */
  const render = async (job: { source: string; data: unknown; format: 'pdf' | 'svg'; date: string }) =>
    renderOn(pool(), { ...job, files: (await gatherInputs(db, job.source)).files });

  /**
   * The production documents a caller may read: a document rendered for a record follows its
   * record's module — the evaluator's record conditions on that module's resource (`policies:policy`,
   * `claims:claim`, `quote:quote`) over the book kept on the document, and for agents and agencies
   * their book whatever their policies say (as the policies and quote modules apply it). A document
   * without a record follows `documents:production-document`; producers never see those.
   */
  async function readScope(request: FastifyRequest): Promise<SQL> {
    const principal = request.principal;
    if (!principal) return sql`false`;
    const evaluator = context.services.evaluator;
    const filterFor = async (resource: string): Promise<SQL | undefined> => {
      if (!evaluator?.recordFilter) return undefined;
      const residual = await evaluator.recordFilter(principal, { resource, action: 'read' });
      return residual === true ? undefined : recordFilterToSql(residual, bookColumns);
    };
    const role = principal.effectiveRole ?? (principal.roles.length === 1 ? principal.roles[0] : null);
    const attributes = principal.attributes ?? {};
    const own = eq(productionDocument.agentContactId, String(attributes.contact_id ?? ''));
    const agency = eq(productionDocument.agencyContactId, String(attributes.agency_id ?? ''));
    const book: Record<RecordType, SQL | undefined> =
      role === 'Agent'
        ? { policy: own, quote: or(own, agency), claim: own }
        : role === 'Agency'
          ? { policy: agency, quote: agency, claim: agency }
          : { policy: undefined, quote: undefined, claim: undefined };
    const branches: SQL[] = [];
    for (const type of RECORD_TYPES) {
      branches.push(and(eq(productionDocument.recordType, type), await filterFor(RECORD_RESOURCES[type]), book[type])!);
    }
    if (role !== 'Agent' && role !== 'Agency') {
      branches.push(
        and(isNull(productionDocument.recordType), await filterFor('documents:production-document')) ??
          isNull(productionDocument.recordType),
      );
    }
    return or(...branches)!;
  }

  /** The book of the record a document is rendered for: the policy's own when policies is installed. */
  async function bookOf(record: z.infer<typeof recordRef>) {
    const lookup = record.type === 'policy' ? context.optionalService(POLICY_LOOKUP) : undefined;
    if (lookup) {
      const found = await lookup.getPolicy(db, record.id);
      if (!found) {
        throw new ApiError(422, `Policy ${record.id} not found.`, { source: { pointer: '/record/id' } });
      }
      return { agentContactId: found.agentContactId, agencyContactId: found.agencyContactId };
    }
    return { agentContactId: record.agent_contact_id ?? null, agencyContactId: record.agency_contact_id ?? null };
  }

  /**
   * Previews with a real policy are for those who read every policy (staff): the record's data comes
   * from the policies module (its declarations source, the first revision in the catalogue's shape).
   */
  async function requirePolicyReads(request: FastifyRequest) {
    const evaluator = context.services.evaluator;
    const residual = evaluator?.recordFilter
      ? await evaluator.recordFilter(request.principal, { resource: 'policies:policy', action: 'read' })
      : true;
    if (residual !== true) throw new ApiError(403, 'Previewing with a real policy needs permission to read policies.');
    const lookup = context.optionalService(POLICY_LOOKUP);
    const source = context.optionalService(POLICY_DECLARATIONS_SOURCE);
    if (!lookup || !source) throw new ApiError(422, 'The policies module is not installed; preview with the sample.');
    return { lookup, source };
  }

  async function policyData(request: FastifyRequest, policyId: string): Promise<Record<string, unknown>> {
    const { source } = await requirePolicyReads(request);
    const found = await source.declarationsRequestFor(db, { policyId, createdBy: request.principal.username });
    if (!found) throw new ApiError(422, `Policy ${policyId} not found.`, { source: { pointer: '/record/id' } });
    return found.data;
  }

  /**
   * A real claim's or quote's data, asked of its module's lookup with the caller: the lookup applies
   * the caller's record scope, so a record they may not read is "not found" like a missing one.
   */
  async function recordData(
    request: FastifyRequest,
    record: { type: Subject; id: string },
  ): Promise<Record<string, unknown>> {
    if (record.type === 'policy') return policyData(request, record.id);
    const notFoundHere = () =>
      new ApiError(422, `${record.type === 'claim' ? 'Claim' : 'Quote'} ${record.id} not found.`, {
        source: { pointer: '/record/id' },
      });
    if (record.type === 'claim') {
      const claims = context.optionalService(CLAIM_LOOKUP);
      if (!claims) throw new ApiError(422, 'The claims module is not installed; preview with the sample.');
      const claimId = /^[1-9]\d{0,9}$/.test(record.id) ? Number(record.id) : 0;
      const found = claimId && claimId <= 2147483647 ? await claims.claimDocumentData(db, claimId, request) : null;
      if (!found) throw notFoundHere();
      return found;
    }
    const quotes = context.optionalService(QUOTE_LOOKUP);
    if (!quotes) throw new ApiError(422, 'The quote module is not installed; preview with the sample.');
    const found = await quotes.quoteDocumentSource(db, record.id, request);
    if (!found) throw notFoundHere();
    return found.data;
  }

  async function findTemplate(templateId: number) {
    const [row] = await db.select().from(template).where(eq(template.id, templateId));
    if (!row) throw notFound(`Template ${templateId} not found.`);
    return row;
  }

  async function findVersion(versionId: number) {
    const [row] = await db.select().from(version).where(eq(version.id, versionId));
    if (!row) throw notFound(`Version ${versionId} not found.`);
    return row;
  }

  router.get(
    '/documents/templates/:id/versions/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: "Lists a template's versions, newest first.", tags, security, params: z.object({ id }) },
    },
    async (request) => {
      await findTemplate(request.params.id);
      const rows = await db
        .select()
        .from(version)
        .where(eq(version.templateId, request.params.id))
        .orderBy(desc(version.number));
      return { count: rows.length, results: rows.map(versionView) };
    },
  );

  router.post(
    '/documents/templates/:id/versions/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Creates a draft version; without a source it starts from the latest version.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          name: z.string().trim().min(1, 'A version name is required.').max(120),
          description: z.string().max(2000).default(''),
          effective_date: isoDate,
          source: source.optional(),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await db.transaction(async (tx) => {
        const [tpl] = await tx.select().from(template).where(eq(template.id, request.params.id)).for('update');
        if (!tpl) throw notFound(`Template ${request.params.id} not found.`);
        const [latest] = await tx
          .select()
          .from(version)
          .where(eq(version.templateId, tpl.id))
          .orderBy(desc(version.number))
          .limit(1);
        const [row] = await tx
          .insert(version)
          .values({
            templateId: tpl.id,
            number: (latest?.number ?? 0) + 1,
            name: body.name,
            description: body.description,
            effectiveDate: body.effective_date,
            source: body.source ?? latest?.source ?? '= ' + tpl.name + '\n',
            createdBy: request.principal.username,
          })
          .returning();
        return row!;
      });
      reply.code(201);
      return versionView(created);
    },
  );

  router.get(
    '/documents/versions/:id/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: 'Reads a template version.', tags, security, params: z.object({ id }) },
    },
    async (request) => versionView(await findVersion(request.params.id)),
  );

  router.patch(
    '/documents/versions/:id/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Changes a draft version (a published version is frozen: 409).',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          name: z.string().trim().min(1, 'A version name is required.').max(120).optional(),
          description: z.string().max(2000).optional(),
          effective_date: isoDate.optional(),
          source: source.optional(),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(version).where(eq(version.id, request.params.id)).for('update');
        if (!row) throw notFound(`Version ${request.params.id} not found.`);
        if (row.status === 'published') {
          throw conflict(
            `Version ${row.number} (${row.name}) is published and cannot be changed; create a new version.`,
          );
        }
        const [next] = await tx
          .update(version)
          .set({
            ...(body.name !== undefined && { name: body.name }),
            ...(body.description !== undefined && { description: body.description }),
            ...(body.effective_date !== undefined && { effectiveDate: body.effective_date }),
            ...(body.source !== undefined && { source: body.source }),
          })
          .where(eq(version.id, row.id))
          .returning();
        return next!;
      });
      return versionView(updated);
    },
  );

  router.post(
    '/documents/versions/:id/publish/',
    {
      config: { access: can('template', 'publish') },
      schema: {
        summary:
          "Publishes a draft version after rendering it with its template's sample data; it is frozen from then on.",
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const row = await findVersion(request.params.id);
      if (row.status === 'published') throw conflict(`Version ${row.number} (${row.name}) is already published.`);
      const tpl = await findTemplate(row.templateId);
      try {
        await render({
          source: row.source,
          data: SAMPLES[tpl.subject as Subject],
          format: 'svg',
          date: row.effectiveDate,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) {
          throw new ApiError(422, `Version ${row.number} cannot be published: ${error.message}`, {
            code: error.code,
            meta: error.meta,
          });
        }
        throw error;
      }
      const published = await db.transaction(async (tx) => {
        const [next] = await tx
          .update(version)
          .set({ status: 'published', publishedBy: request.principal.username, publishedAt: new Date() })
          .where(and(eq(version.id, row.id), eq(version.status, 'draft')))
          .returning();
        if (!next) throw conflict(`Version ${row.number} (${row.name}) is already published.`);
        return next;
      });
      return versionView(published);
    },
  );

  router.get(
    '/documents/versions/:id/preview/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary:
          "Renders a stored version with its template's sample data to SVG (for readers, who may not preview source).",
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const row = await findVersion(request.params.id);
      const tpl = await findTemplate(row.templateId);
      const started = performance.now();
      const result = await render({
        source: row.source,
        data: SAMPLES[tpl.subject as Subject],
        format: 'svg',
        date: row.effectiveDate,
      });
      return {
        page_count: result.pageCount,
        svg: result.svg ?? '',
        render_ms: Math.round(performance.now() - started),
        unresolved_paths: unresolvedPaths(tpl.subject as Subject, SAMPLES[tpl.subject as Subject]),
      };
    },
  );

  router.post(
    '/documents/previews/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary:
          "Renders template source with data (or a subject's sample data) to SVG; a template that does not compile is a 422 with its line.",
        tags,
        security,
        body: z.strictObject({
          source,
          data: data.optional(),
          subject: z.enum(SUBJECTS, { message: SUBJECT_MESSAGE }).optional(),
          date: isoDate.optional(),
          // A real record to render with instead of the sample: a policy, a claim or a quote, asked of its module.
          record: z
            .strictObject({
              type: z.enum(SUBJECTS, { message: "The record type must be 'policy', 'claim' or 'quote'." }),
              id: z.string().trim().min(1, 'A record id is required.').max(64),
            })
            .optional(),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const subject = body.record ? body.record.type : (body.subject ?? 'policy');
      const input = body.data ?? (body.record ? await recordData(request, body.record) : SAMPLES[subject]);
      const started = performance.now();
      const result = await render({
        source: body.source,
        data: input,
        format: 'svg',
        date: body.date ?? new Date().toISOString().slice(0, 10),
      });
      return {
        page_count: result.pageCount,
        svg: result.svg ?? '',
        render_ms: Math.round(performance.now() - started),
        unresolved_paths: unresolvedPaths(subject, input),
      };
    },
  );

  router.post(
    '/documents/production-documents/',
    {
      config: { access: can('production-document', 'create') },
      schema: {
        summary: "Renders a template for data with the published version in effect on the document's own date.",
        tags,
        security,
        body: z.strictObject({ template_id: id, document_date: isoDate, data, record: recordRef.optional() }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const tpl = await findTemplate(body.template_id);
      const book = body.record ? await bookOf(body.record) : null;
      const chosen = await versionInForce(db, tpl.id, body.document_date);
      if (!chosen) {
        throw new ApiError(422, noVersionInForce(tpl.name, body.document_date), {
          source: { pointer: '/document_date' },
        });
      }
      const { inputs, files } = await gatherInputs(db, chosen.source);
      const result = await renderOn(pool(), {
        source: chosen.source,
        data: body.data,
        format: 'pdf',
        date: body.document_date,
        files,
      });
      const pdf = result.pdf!;
      const [row] = await db
        .insert(productionDocument)
        .values({
          templateId: tpl.id,
          versionId: chosen.id,
          documentDate: body.document_date,
          data: body.data,
          rendererVersion: rendererVersion(),
          sha256: sha256(pdf),
          pageCount: result.pageCount,
          pdfBase64: pdf.toString('base64'),
          recordType: body.record?.type ?? null,
          recordId: body.record?.id ?? null,
          agentContactId: book?.agentContactId ?? null,
          agencyContactId: book?.agencyContactId ?? null,
          createdBy: request.principal.username,
          inputs,
        })
        .returning();
      reply.code(201);
      return documentView(row!, { ...chosen, templateName: tpl.name });
    },
  );

  /** One production document within the caller's scope; outside it answers 404, like a missing one. */
  async function findDocument(request: FastifyRequest, documentId: number) {
    const [row] = await db
      .select({
        doc: productionDocument,
        number: version.number,
        name: version.name,
        source: version.source,
        templateName: template.name,
      })
      .from(productionDocument)
      .innerJoin(version, eq(version.id, productionDocument.versionId))
      .innerJoin(template, eq(template.id, productionDocument.templateId))
      .where(and(eq(productionDocument.id, documentId), await readScope(request)));
    if (!row) throw notFound(`Production document ${documentId} not found.`);
    return row;
  }

  router.get(
    '/documents/production-documents/',
    {
      config: { access: can('production-document', 'read') },
      schema: {
        summary: 'Lists production documents, newest first (optionally of one template).',
        tags,
        security,
        querystring: z.object({
          template_id: id.optional(),
          record_type: z
            .enum(RECORD_TYPES, { message: "The record type must be 'policy', 'claim' or 'quote'." })
            .optional(),
          record_id: z.string().trim().min(1).max(64).optional(),
          print_state: z
            .enum(PRINT_STATES, { message: "The print state must be 'not_printed', 'queued' or 'printed'." })
            .optional(),
        }),
      },
    },
    async (request) => {
      const { template_id, record_type, record_id, print_state } = request.query;
      const rows = await db
        .select({ doc: productionDocument, number: version.number, name: version.name, templateName: template.name })
        .from(productionDocument)
        .innerJoin(version, eq(version.id, productionDocument.versionId))
        .innerJoin(template, eq(template.id, productionDocument.templateId))
        .where(
          and(
            template_id ? eq(productionDocument.templateId, template_id) : undefined,
            print_state ? eq(productionDocument.printState, print_state) : undefined,
            record_type ? eq(productionDocument.recordType, record_type) : undefined,
            record_id ? eq(productionDocument.recordId, record_id) : undefined,
            await readScope(request),
          ),
        )
        .orderBy(desc(productionDocument.id))
        .limit(200);
      const mails = await mailStates(
        context,
        rows.map((r) => r.doc.lastMailId),
      );
      return {
        count: rows.length,
        results: rows.map((r) => ({ ...documentView(r.doc, r), ...emailStateOf(mails, r.doc.lastMailId) })),
      };
    },
  );

  router.get(
    '/documents/production-documents/:id/',
    {
      config: { access: can('production-document', 'read') },
      schema: { summary: 'Reads a production document.', tags, security, params: z.object({ id }) },
    },
    async (request) => {
      const row = await findDocument(request, request.params.id);
      const mails = await mailStates(context, [row.doc.lastMailId]);
      return { ...documentView(row.doc, row), ...emailStateOf(mails, row.doc.lastMailId) };
    },
  );

  router.get(
    '/documents/production-documents/:id/pdf/',
    {
      config: { access: can('production-document', 'read') },
      schema: { summary: "A production document's PDF.", tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      const row = await findDocument(request, request.params.id);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="document-${row.doc.id}.pdf"`);
      return Buffer.from(row.doc.pdfBase64, 'base64');
    },
  );

  router.post(
    '/documents/production-documents/:id/rerender/',
    {
      config: { access: can('production-document', 'read') },
      schema: {
        summary:
          'Renders a production document again from its stored version and data and compares the SHA-256 (nothing is stored).',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const row = await findDocument(request, request.params.id);
      const [tpl] = await db.select({ name: template.name }).from(template).where(eq(template.id, row.doc.templateId));
      let result: { pdf: Buffer };
      try {
        result = await assemble(pool(), {
          source: row.source,
          data: row.doc.data,
          date: row.doc.documentDate,
          title: tpl?.name ?? '',
          parts: row.doc.parts as AssemblyPart[],
          formPdf: formPdfReader(db),
          files: await filesOf(db, row.doc.inputs as RenderInputs),
        });
      } catch (error) {
        if (error instanceof FormError) throw new ApiError(422, error.message, { code: 'form_error' });
        throw error;
      }
      const digest = sha256(result.pdf);
      return {
        id: row.doc.id,
        sha256: digest,
        stored_sha256: row.doc.sha256,
        identical: digest === row.doc.sha256,
        renderer_version: rendererVersion(),
        stored_renderer_version: row.doc.rendererVersion,
      };
    },
  );

  router.get(
    '/documents/data-points/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary: 'The data-point catalogue: path, type, sample value and source module.',
        tags,
        security,
        querystring: z.object({
          subject: z.enum(SUBJECTS, { message: SUBJECT_MESSAGE }).optional(),
        }),
      },
    },
    async (request) => {
      const subject = request.query.subject;
      const results = DATA_POINTS.filter((point) => !subject || point.subject === subject);
      return { version: DATA_POINTS_VERSION, count: results.length, results };
    },
  );

  router.get(
    '/documents/data-points/records/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary:
          "Real policies, claims or quotes a template preview can render with, by number or name (at most 20, within the caller's scope).",
        tags,
        security,
        querystring: z.object({
          subject: z.enum(SUBJECTS, { message: SUBJECT_MESSAGE }).default('policy'),
          search: z.string().trim().max(100).default(''),
        }),
      },
    },
    async (request) => {
      const { subject, search } = request.query;
      const limit = 20;
      let results: { type: Subject; id: string; label: string }[];
      if (subject === 'policy') {
        const { lookup } = await requirePolicyReads(request);
        const found = await lookup.searchPolicies(db, { search, limit });
        results = found.map((p) => ({
          type: 'policy',
          id: p.policyId,
          label: `${p.policyNumber} · ${p.namedInsured.name}`,
        }));
      } else if (subject === 'claim') {
        const claims = context.optionalService(CLAIM_LOOKUP);
        if (!claims) throw new ApiError(422, 'The claims module is not installed; preview with the sample.');
        const found = await claims.searchClaims(db, { search, limit }, request);
        results = found.map((c) => ({
          type: 'claim',
          id: String(c.claimId),
          label: c.claimant ? `${c.number} · ${c.claimant}` : c.number,
        }));
      } else {
        const quotes = context.optionalService(QUOTE_LOOKUP);
        if (!quotes) throw new ApiError(422, 'The quote module is not installed; preview with the sample.');
        const found = await quotes.searchQuotes(db, { search, limit }, request);
        results = found.map((q) => ({
          type: 'quote',
          id: q.number,
          label: q.namedInsured ? `${q.number} · ${q.namedInsured}` : q.number,
        }));
      }
      return { count: results.length, results };
    },
  );

  router.get(
    '/documents/data-points/samples/:subject/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary: 'The sample data of a subject (a policy or a claim) that previews render with.',
        tags,
        security,
        params: z.object({ subject: z.enum(SUBJECTS, { message: SUBJECT_MESSAGE }) }),
      },
    },
    async (request) => SAMPLES[request.params.subject],
  );

  router.get(
    '/documents/helper-functions/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: 'The helper functions templates may call, with an example each.', tags, security },
    },
    async () => ({ count: HELPER_FUNCTIONS.length, results: HELPER_FUNCTIONS }),
  );

  return { readScope, findDocument };
}
