import { dismissTransactionException } from './transaction-failure.js';
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  defineGatewayMethod,
  recordFilterToSql,
  z,
  type AtriumRouter,
  type GatewayMethod,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { LINES_RATING } from '@atrium/plugin-lines/rating-service';
import type { FastifyRequest } from 'fastify';
import { compareWorksheets, premiumExplained } from './compare.js';
import { declarationsOf } from './declarations.js';
import { can } from './permissions.js';
import { ratingTree } from './rerate.js';
import { Decimal, cents } from './premium.js';
import { coveragesOf, likeText, productTitle, type PolicyRow } from './services.js';
import {
  installment,
  invoice,
  linkedPolicy,
  payment,
  policy,
  policyRevision,
  policyStatus,
  policyTerm,
  policyTransaction,
  policyType,
} from './tables.js';
import {
  TRANSACTION_QUEUE,
  TRANSACTION_TYPES,
  enqueueTransaction,
  openTransactions,
  policyHistory,
  termFigures,
  type TransactionType,
} from './transactions.js';

const tags = ['policies'];
const security = [{ bearer: [] as string[] }];
const today = () => new Date().toISOString().slice(0, 10);
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day && day >= '1900-01-01';
  }, 'Enter a date as YYYY-MM-DD.');
/** A row id (PostgreSQL integer). */
const intId = (message?: string) => z.coerce.number().int().min(1, message).max(2_147_483_647, message);
const idParam = z.strictObject({ id: intId() });
const money = z
  .string()
  .trim()
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'Enter an amount with at most 2 decimal places.');

const page = <T>(results: T[], count: number, pageNo: number, size: number) => ({
  count,
  next: pageNo * size < count ? pageNo + 1 : null,
  previous: pageNo > 1 ? pageNo - 1 : null,
  results,
});

/** What the access evaluator sees of a policy (`record.agent_contact_id` …). */
const recordColumns = {
  agent_contact_id: policy.agentContactId,
  agency_contact_id: policy.agencyContactId,
  created_by: policy.createdBy,
};

/**
 * The policies a caller may read: the evaluator's record conditions on `policies:policy`, and for
 * agents and agencies their own book (the policy's agent or agency is their contact id) whatever
 * their policies say (docs/policies.md, "Who sees which policies").
 */
export async function readScope(context: ServerPluginContext, request: FastifyRequest): Promise<SQL | undefined> {
  const principal = request.principal;
  if (!principal) return sql`false`;
  const parts: SQL[] = [];
  const evaluator = context.services.evaluator;
  if (evaluator?.recordFilter) {
    const filter = await evaluator.recordFilter(principal, { resource: 'policies:policy', action: 'read' });
    if (filter !== true) parts.push(recordFilterToSql(filter, recordColumns));
  }
  const role = principal.effectiveRole ?? (principal.roles.length === 1 ? principal.roles[0] : null);
  const attributes = principal.attributes ?? {};
  if (role === 'Agent') parts.push(eq(policy.agentContactId, String(attributes.contact_id ?? '')));
  if (role === 'Agency') parts.push(eq(policy.agencyContactId, String(attributes.agency_id ?? '')));
  return parts.length ? and(...parts) : undefined;
}

export async function readablePolicy(
  context: ServerPluginContext,
  request: FastifyRequest,
  id: number,
): Promise<PolicyRow> {
  const [row] = await context.db
    .select()
    .from(policy)
    .where(and(eq(policy.id, id), await readScope(context, request)));
  if (!row) throw new ApiError(404, `Policy ${id} not found.`);
  return row;
}

type RevisionRow = typeof policyRevision.$inferSelect;
type TermRow = typeof policyTerm.$inferSelect;

export function revisionView(row: RevisionRow, p: PolicyRow, term: TermRow | undefined) {
  const contacts = row.contacts;
  const primary = contacts.find((c) => c.namedInsured) ?? null;
  return {
    id: row.id,
    number: row.number,
    policy_id: row.policyId,
    britelines_product_name: p.productSlug,
    policy_type_name: p.policyTypeName,
    quote_number: row.quoteNumber,
    product_version: row.productVersionId,
    revision_date: row.revisionDate,
    revision_state: row.revisionState,
    policy_status: row.policyStatus,
    description: row.description,
    commission_rate: row.commissionRate,
    written_premium: row.writtenPremium,
    annual_premium: row.annualPremium,
    written_premium_delta: row.writtenPremiumDelta,
    full_policy_number: `${p.number}-${String(row.number).padStart(2, '0')}`,
    non_renew_number_days_prior: 30,
    policy_term: term
      ? { id: term.id, number: term.number, effective_date: term.effectiveDate, expiration_date: term.expirationDate }
      : null,
    primary_insured_contact: primary ? { contact: { id: primary.contactId, name: primary.name } } : null,
    named_insured_contacts: contacts.filter((c) => c.namedInsured).map((c) => ({ id: c.contactId, name: c.name })),
    additional_insured_contacts: contacts
      .filter((c) => c.additionalInterest)
      .map((c) => ({ id: c.contactId, name: c.name, interest: c.interest })),
    agency_contact: p.agencyContactId ? { id: p.agencyContactId } : null,
    agent_contact: p.agentContactId ? { id: p.agentContactId } : null,
    files: [],
    date_added: row.createdAt.toISOString(),
    created_by: row.createdBy,
  };
}

export function transactionView(row: typeof policyTransaction.$inferSelect) {
  return {
    id: row.id,
    description: row.description,
    type: row.type,
    policy: row.policyId,
    revision: row.revisionId,
    policy_term: row.termId,
    effective_date: row.effectiveDate,
    transaction_date_time: row.updatedAt.toISOString(),
    date_created: row.createdAt.toISOString(),
    username: row.username,
    oos_status: row.oosStatus,
    triggering_oos_transaction: row.triggeringOosTransactionId,
    status: row.status,
    error: row.error,
    reason_dismissed: row.reasonDismissed,
    auto_bind: row.autoBind,
    process_async: row.processAsync,
    postback: null,
    input: row.input,
    result: row.result,
  };
}

async function policyView(context: ServerPluginContext, p: PolicyRow) {
  const { terms, revisions } = await policyHistory(context.db, p.id);
  const current = terms.find((t) => t.effectiveDate <= today() && today() < t.expirationDate) ?? terms.at(-1);
  const figures = current
    ? termFigures(current, revisions, today() < current.effectiveDate ? current.effectiveDate : today())
    : null;
  const [oos] = await context.db
    .select({ id: policyTransaction.id })
    .from(policyTransaction)
    .where(and(eq(policyTransaction.policyId, p.id), eq(policyTransaction.oosStatus, 'conflicts')))
    .limit(1);
  const latest = revisions.at(-1);
  return {
    id: p.id,
    policy_number: p.number,
    product: p.productSlug,
    product_name: productTitle(p.productSlug),
    policy_type_name: p.policyTypeName,
    state: p.state,
    status: p.status,
    cancellation_pending: p.cancellationPending,
    cancellation_pending_date: p.cancellationPendingDate,
    cancellation_pending_reason: p.cancellationPendingReason,
    quote_number: p.quoteNumber,
    named_insured: { id: p.namedInsuredContactId, name: p.namedInsuredName },
    agent_contact_id: p.agentContactId,
    agency_contact_id: p.agencyContactId,
    short_rate: p.shortRate,
    date_added: p.createdAt.toISOString(),
    terms: terms.map((t) => ({
      id: t.id,
      number: t.number,
      effective_date: t.effectiveDate,
      expiration_date: t.expirationDate,
      premium: t.premium,
    })),
    latest_revision_id: latest?.id ?? null,
    annual_premium: latest?.annualPremium ?? null,
    premium: figures
      ? {
          as_of: today(),
          written: figures.written,
          earned: figures.earned,
          unearned: figures.unearned,
          term_days: figures.termDays,
        }
      : null,
    in_progress_oos_transaction: oos?.id ?? null,
    /** Whether an endorsement without a premium is re-rated (lines installed, risk data a rating tree). */
    rerateable: Boolean(context.optionalService(LINES_RATING)) && ratingTree(latest?.risks) !== null,
  };
}

/** `risks` flattened to labelled rows for the risk tabs: one tab per top-level risk. */
export function formatRisk(risks: unknown): { tab: string; rows: { label: string; value: string }[] }[] {
  const label = (key: string) => key.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
  const rowsOf = (value: unknown, prefix = ''): { label: string; value: string }[] => {
    if (value === null || typeof value !== 'object') return [{ label: prefix || 'Value', value: String(value ?? '') }];
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? rowsOf(v, prefix ? `${prefix} › ${label(key)}` : label(key))
        : [
            {
              label: prefix ? `${prefix} › ${label(key)}` : label(key),
              value: Array.isArray(v) ? v.join(', ') : String(v ?? ''),
            },
          ],
    );
  };
  if (!risks || typeof risks !== 'object') return [];
  const tree = ratingTree(risks);
  if (tree) {
    // A rating tree: one tab per risk (its type, numbered among siblings), its answers and coverages.
    const tabs: { tab: string; rows: { label: string; value: string }[] }[] = [];
    const visit = (node: NonNullable<typeof tree>, name: string) => {
      const rows = Object.entries(node.answers ?? {})
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => ({ label: label(k), value: String(v) }));
      for (const item of node.items ?? []) {
        const parts = [
          item.limit !== undefined ? `limit ${String(item.limit)}` : null,
          item.deductible !== undefined ? `deductible ${String(item.deductible)}` : null,
        ].filter(Boolean);
        rows.push({ label: `Coverage › ${label(item.name)}`, value: parts.join(', ') || 'Included' });
      }
      tabs.push({ tab: name, rows });
      const children = node.children ?? [];
      for (const child of children) {
        const same = children.filter((c) => c.type === child.type);
        visit(child, `${label(child.type)}${same.length > 1 ? ` ${same.indexOf(child) + 1}` : ''}`);
      }
    };
    visit(tree, label(tree.type));
    return tabs;
  }
  return Object.entries(risks as Record<string, unknown>).map(([key, value]) => ({
    tab: label(key),
    rows: rowsOf(value),
  }));
}

/** Billing of a policy: schedule, installments, invoices, payments, balance. */
async function billingInformation(context: ServerPluginContext, p: PolicyRow) {
  const db = context.db;
  const rows = await db
    .select()
    .from(installment)
    .where(eq(installment.policyId, p.id))
    .orderBy(asc(installment.termId), asc(installment.number));
  const invoices = await db.select().from(invoice).where(eq(invoice.policyId, p.id)).orderBy(asc(invoice.invoiceDate));
  const payments = await db.select().from(payment).where(eq(payment.policyId, p.id)).orderBy(asc(payment.receivedOn));
  const billed = rows
    .filter((r) => r.status !== 'canceled')
    .reduce((sum, r) => sum.plus(r.amount).plus(r.fee), new Decimal(0));
  const paid = payments.reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
  return {
    policy_id: p.id,
    policy_number: p.number,
    schedule_id: rows[0]?.scheduleId ?? null,
    installments: rows.map((r) => ({
      id: r.id,
      term_id: r.termId,
      number: r.number,
      due_date: r.dueDate,
      amount: r.amount,
      fee: r.fee,
      total: cents(new Decimal(r.amount).plus(r.fee)),
      status: r.status,
      invoice_id: r.invoiceId,
    })),
    invoices: invoices.map(invoiceView),
    payments: payments.map((r) => ({
      id: r.id,
      invoice_id: r.invoiceId,
      received_on: r.receivedOn,
      amount: r.amount,
      method: r.method,
      reference: r.reference,
    })),
    total_billed: cents(billed),
    total_paid: cents(paid),
    balance: cents(billed.minus(paid)),
  };
}

const invoiceView = (r: typeof invoice.$inferSelect) => ({
  id: r.id,
  number: r.number,
  invoice_date: r.invoiceDate,
  due_date: r.dueDate,
  amount: r.amount,
  status: r.status,
  description: r.description,
});

const transactionBody = z.strictObject({
  policy: intId(),
  type: z.enum(TRANSACTION_TYPES, { error: 'Choose endorsement, cancellation, reinstatement or renewal.' }),
  effective_date: isoDay,
  description: z.string().trim().max(500).default(''),
  annual_premium: money.optional(),
  changes: z.record(z.string().max(200), z.unknown()).optional(),
  method: z.enum(['pro_rata', 'short_rate', 'flat']).optional(),
  reason: z.string().trim().max(500).optional(),
});

const TRANSACTION_ACTION: Record<TransactionType, 'endorse' | 'cancel' | 'reinstate' | 'renew'> = {
  endorsement: 'endorse',
  cancellation: 'cancel',
  reinstatement: 'reinstate',
  renewal: 'renew',
};

export function policyRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  /** Whether the policy's latest revision can be re-rated (lines installed, risk data a rating tree). */
  const rerateable = async (policyId: number) => {
    if (!context.optionalService(LINES_RATING)) return false;
    const [latest] = await db
      .select({ risks: policyRevision.risks })
      .from(policyRevision)
      .where(and(eq(policyRevision.policyId, policyId), eq(policyRevision.revisionState, 'committed')))
      .orderBy(desc(policyRevision.number))
      .limit(1);
    return ratingTree(latest?.risks) !== null;
  };
  const readPolicy = can('policy', 'read');

  router.get(
    '/policies/policies/',
    {
      config: { access: readPolicy },
      schema: {
        summary: 'Policy search: by number or primary insured, newest first (page size 10).',
        tags,
        security,
        querystring: z.strictObject({
          search: z.string().trim().max(200).optional(),
          search_type: z.enum(['number', 'primary_insured']).optional(),
          status: z.string().trim().max(50).optional(),
          product: z.string().trim().max(100).optional(),
          page: intId().max(100_000).default(1),
          page_size: intId().max(100).default(10),
          ordering: z
            .enum([
              '-date_added',
              'date_added',
              'policy_number',
              '-policy_number',
              'expiration_date',
              '-expiration_date',
            ])
            .default('-date_added'),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      // The latest term's end: what an agent's "renewing next" list orders by.
      const expires = sql`(select max(t.expiration_date) from policies.policy_term t where t.policy_id = ${policy.id})`;
      const pattern = q.search ? likeText(q.search) : null;
      const match = pattern
        ? q.search_type === 'number'
          ? ilike(policy.number, pattern)
          : q.search_type === 'primary_insured'
            ? ilike(policy.namedInsuredName, pattern)
            : or(ilike(policy.number, pattern), ilike(policy.namedInsuredName, pattern))
        : undefined;
      const where = and(
        match,
        q.status ? eq(policy.status, q.status) : undefined,
        q.product ? eq(policy.productSlug, q.product) : undefined,
        await readScope(context, request),
      );
      const order = {
        '-date_added': [desc(policy.createdAt), desc(policy.id)],
        date_added: [asc(policy.createdAt), asc(policy.id)],
        policy_number: [asc(policy.number)],
        '-policy_number': [desc(policy.number)],
        expiration_date: [asc(expires), asc(policy.id)],
        '-expiration_date': [desc(expires), desc(policy.id)],
      }[q.ordering];
      const [{ n }] = (await db
        .select({ n: sql<number>`count(*)::int` })
        .from(policy)
        .where(where)) as [{ n: number }];
      const rows = await db
        .select({
          policy,
          effective: sql<string>`(select min(t.effective_date)::text from policies.policy_term t where t.policy_id = ${policy.id})`,
          expiration: sql<string>`(select max(t.expiration_date)::text from policies.policy_term t where t.policy_id = ${policy.id})`,
        })
        .from(policy)
        .where(where)
        .orderBy(...order)
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return page(
        rows.map(({ policy: p, effective, expiration }) => ({
          id: p.id,
          policy_number: p.number,
          product: p.productSlug,
          product_name: productTitle(p.productSlug),
          status: p.status,
          cancellation_pending: p.cancellationPending,
          primary_insured: p.namedInsuredName,
          effective_date: effective,
          expiration_date: expiration,
          date_added: p.createdAt.toISOString(),
        })),
        n,
        q.page,
        q.page_size,
      );
    },
  );

  router.get(
    '/policies/policies/:id/',
    {
      config: { access: readPolicy },
      schema: { summary: 'A policy with its terms and premium to date.', tags, security, params: idParam },
    },
    async (request) => policyView(context, await readablePolicy(context, request, request.params.id)),
  );

  router.get(
    '/policies/revisions/',
    {
      config: { access: readPolicy },
      schema: {
        summary: 'Revisions of a policy (filter[policy_id]); filter[agents] / filter[agencies] by producer contact id.',
        tags,
        security,
        querystring: z.object({
          'filter[policy_id]': intId().optional(),
          'filter[agents]': z.string().max(50).optional(),
          'filter[agencies]': z.string().max(50).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      if (!q['filter[policy_id]'] && !q['filter[agents]'] && !q['filter[agencies]']) {
        throw new ApiError(400, 'Filter revisions by policy_id, agents or agencies.');
      }
      const rows = await db
        .select({ revision: policyRevision, policy, term: policyTerm })
        .from(policyRevision)
        .innerJoin(policy, eq(policy.id, policyRevision.policyId))
        .innerJoin(policyTerm, eq(policyTerm.id, policyRevision.termId))
        .where(
          and(
            q['filter[policy_id]'] ? eq(policy.id, q['filter[policy_id]']) : undefined,
            q['filter[agents]'] ? eq(policy.agentContactId, q['filter[agents]']) : undefined,
            q['filter[agencies]'] ? eq(policy.agencyContactId, q['filter[agencies]']) : undefined,
            await readScope(context, request),
          ),
        )
        .orderBy(asc(policyRevision.policyId), desc(policyRevision.number))
        .limit(250);
      return {
        count: rows.length,
        next: null,
        previous: null,
        results: rows.map((r) => revisionView(r.revision, r.policy, r.term)),
      };
    },
  );

  /** A revision the caller may read (by `revision_id`, or the policy's latest). */
  const revisionOf = async (request: FastifyRequest, q: { revision_id?: number; policy_id?: number }) => {
    const [row] = await db
      .select({ revision: policyRevision, policy, term: policyTerm })
      .from(policyRevision)
      .innerJoin(policy, eq(policy.id, policyRevision.policyId))
      .innerJoin(policyTerm, eq(policyTerm.id, policyRevision.termId))
      .where(
        and(
          q.revision_id ? eq(policyRevision.id, q.revision_id) : undefined,
          q.policy_id ? eq(policyRevision.policyId, q.policy_id) : undefined,
          await readScope(context, request),
        ),
      )
      .orderBy(desc(policyRevision.number))
      .limit(1);
    if (!row) throw new ApiError(404, 'Revision not found.');
    return row;
  };
  const revisionQuery = z
    .strictObject({
      revision_id: intId().optional(),
      policy_id: intId().optional(),
    })
    .refine((q) => q.revision_id || q.policy_id, 'Name a revision_id or a policy_id.');

  router.get(
    '/policies/policy-info-screen-flows/',
    {
      config: { access: readPolicy },
      schema: {
        summary: 'The tabs of the policy information screen for a policy.',
        tags,
        security,
        querystring: revisionQuery,
      },
    },
    async (request) => {
      const { revision } = await revisionOf(request, request.query);
      const riskTabs = formatRisk(revision.risks).map((t) => t.tab);
      return {
        screens: [
          ...riskTabs.map((tab) => ({ id: `risk:${tab}`, label: tab, kind: 'risk' })),
          { id: 'coverages', label: 'Coverages', kind: 'coverages' },
          { id: 'billing', label: 'Billing', kind: 'billing' },
          { id: 'transactions', label: 'Transactions', kind: 'transactions' },
          { id: 'linked-policies', label: 'Linked policies', kind: 'linked' },
          { id: 'documents', label: 'Documents', kind: 'documents' },
        ],
      };
    },
  );

  router.get(
    '/policies/formatted-risk/',
    {
      config: { access: readPolicy },
      schema: {
        summary: "A revision's risk data as labelled rows per risk tab.",
        tags,
        security,
        querystring: revisionQuery,
      },
    },
    async (request) => {
      const { revision } = await revisionOf(request, request.query);
      return { revision_id: revision.id, tabs: formatRisk(revision.risks), coverages: coveragesOf(revision.worksheet) };
    },
  );

  router.get(
    '/policies/risk-data/',
    {
      config: { access: readPolicy },
      schema: {
        summary: "A revision's risk data and rating worksheet as stored.",
        tags,
        security,
        querystring: revisionQuery,
      },
    },
    async (request) => {
      const { revision } = await revisionOf(request, request.query);
      return { revision_id: revision.id, risks: revision.risks, worksheet: revision.worksheet };
    },
  );

  router.get(
    '/policies/revisions-contacts/',
    {
      config: { access: readPolicy },
      schema: { summary: 'The contacts on a revision and their flags.', tags, security, querystring: revisionQuery },
    },
    async (request) => {
      const { revision, policy: p } = await revisionOf(request, request.query);
      const contacts = revision.contacts.map((c, i) => ({
        id: i + 1,
        contact: c.contactId,
        name: c.name,
        is_named_insured: c.namedInsured,
        is_additional_interest: c.additionalInterest,
        is_agent: c.agent,
        interest: c.interest,
      }));
      if (p.agentContactId) {
        contacts.push({
          id: contacts.length + 1,
          contact: p.agentContactId,
          name: '',
          is_named_insured: false,
          is_additional_interest: false,
          is_agent: true,
          interest: null,
        });
      }
      return { count: contacts.length, next: null, previous: null, results: contacts };
    },
  );

  router.get(
    '/policies/contacts/:id/',
    {
      config: { access: readPolicy },
      schema: {
        summary: 'A contact as it is named on the policies the caller may read.',
        tags,
        security,
        params: z.strictObject({ id: z.string().max(50) }),
      },
    },
    async (request) => {
      const id = request.params.id;
      const [row] = await db
        .select()
        .from(policy)
        .where(
          and(
            or(eq(policy.namedInsuredContactId, id), eq(policy.agentContactId, id), eq(policy.agencyContactId, id)),
            await readScope(context, request),
          ),
        )
        .limit(1);
      if (!row) throw new ApiError(404, `Contact ${id} not found.`);
      const name = row.namedInsuredContactId === id ? row.namedInsuredName : '';
      return {
        id,
        name,
        type: row.namedInsuredContactId === id ? 'individual' : 'organization',
        email: null,
        address_line: null,
        city: null,
        state: row.state,
        zip: null,
      };
    },
  );

  router.get(
    '/policies/policy-transactions/',
    {
      config: { access: can('transaction', 'read') },
      schema: {
        summary: 'Transactions of a policy, newest first.',
        tags,
        security,
        querystring: z.object({
          'filter[policy_id]': intId('Filter transactions by policy_id.'),
        }),
      },
    },
    async (request) => {
      const p = await readablePolicy(context, request, request.query['filter[policy_id]']);
      const rows = await db
        .select()
        .from(policyTransaction)
        .where(eq(policyTransaction.policyId, p.id))
        .orderBy(desc(policyTransaction.id));
      return { count: rows.length, next: null, previous: null, results: rows.map(transactionView) };
    },
  );

  router.get(
    '/policies/policy-transactions/:id/',
    {
      config: { access: can('transaction', 'read') },
      schema: { summary: 'One transaction and its status.', tags, security, params: idParam },
    },
    async (request) => {
      const [row] = await db.select().from(policyTransaction).where(eq(policyTransaction.id, request.params.id));
      if (!row) throw new ApiError(404, `Transaction ${request.params.id} not found.`);
      await readablePolicy(context, request, row.policyId);
      return transactionView(row);
    },
  );

  router.post(
    '/policies/policy-transactions/',
    {
      // Endorsing is the floor (a role that may transact at all); each type's own action
      // (cancel, reinstate, renew) is checked again below.
      config: { access: can('transaction', 'endorse') },
      schema: {
        summary: 'Starts a transaction (endorsement, cancellation, reinstatement, renewal) as a job.',
        tags,
        security,
        body: transactionBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const evaluator = context.services.evaluator;
      const permission = can('transaction', TRANSACTION_ACTION[body.type]);
      const evaluation =
        evaluator && request.principal ? await evaluator.evaluate(request.principal, permission) : { allowed: false };
      if (!evaluation.allowed) throw new ApiError(403, 'This operation is not allowed. (Error code: 403)');
      const p = await readablePolicy(context, request, body.policy);
      const badPath = Object.keys(body.changes ?? {}).find((path) =>
        path
          .split('.')
          .some((key) => key === '' || key === '__proto__' || key === 'constructor' || key === 'prototype'),
      );
      if (badPath !== undefined) throw new ApiError(400, 'Invalid change path.', { source: { pointer: '/changes' } });
      if (body.type === 'endorsement' && !body.annual_premium && !(await rerateable(p.id))) {
        // Without a premium the endorsement is re-rated, which needs lines and a rating tree.
        throw new ApiError(400, 'An endorsement needs the new annual premium.', {
          source: { pointer: '/annual_premium' },
        });
      }
      if (body.type === 'cancellation' && !body.method) {
        throw new ApiError(400, 'Choose how to cancel: pro rata, short rate or flat.', {
          source: { pointer: '/method' },
        });
      }
      const open = await openTransactions(db, p.id);
      if (open.length) throw new ApiError(409, `Transaction ${open[0]!.id} of this policy is still in progress.`);
      const row = await enqueueTransaction(context, {
        policyId: p.id,
        type: body.type,
        effectiveDate: body.effective_date,
        description: body.description,
        input: { annualPremium: body.annual_premium, changes: body.changes, method: body.method, reason: body.reason },
        username: request.principal?.username ?? 'system',
      });
      reply.code(202);
      return transactionView(row);
    },
  );

  router.patch(
    '/policies/policy-transactions/:id/',
    {
      config: { access: can('transaction', 'dismiss') },
      schema: {
        summary: 'Dismisses a failed transaction with a reason.',
        tags,
        security,
        params: idParam,
        body: z.strictObject({
          reason_dismissed: z.string().trim().min(1, 'Enter the reason for dismissing.').max(500),
        }),
      },
    },
    async (request) => {
      const [row] = await db.select().from(policyTransaction).where(eq(policyTransaction.id, request.params.id));
      if (!row) throw new ApiError(404, `Transaction ${request.params.id} not found.`);
      await readablePolicy(context, request, row.policyId);
      const reviewing = row.status === 'in_progress' && row.oosStatus === 'conflicts';
      if (row.status !== 'failed' && !reviewing) {
        throw new ApiError(409, 'Only a failed transaction can be dismissed.');
      }
      const updated = await db.transaction(async (tx) => {
        const [written] = await tx
          .update(policyTransaction)
          .set({
            reasonDismissed: request.body.reason_dismissed,
            // Withdrawing an out-of-sequence endorsement under review ends it.
            ...(reviewing
              ? { status: 'failed', oosStatus: 'withdrawn', error: 'Out-of-sequence endorsement withdrawn.' }
              : {}),
            updatedAt: new Date(),
          })
          .where(eq(policyTransaction.id, row.id))
          .returning();
        // Its exception (if the failure was reported) leaves the queue with the same reason.
        await dismissTransactionException(
          context,
          tx,
          row.id,
          request.body.reason_dismissed,
          request.principal?.username ?? 'system',
        );
        return written;
      });
      return transactionView(updated!);
    },
  );

  router.post(
    '/policies/policy-transactions/:id/commit-oos/',
    {
      config: { access: can('transaction', 'endorse') },
      schema: {
        summary: 'Commits a reviewed out-of-sequence endorsement: it is applied and carried into the later revisions.',
        tags,
        security,
        params: idParam,
      },
    },
    async (request, reply) => {
      const [row] = await db.select().from(policyTransaction).where(eq(policyTransaction.id, request.params.id));
      if (!row) throw new ApiError(404, `Transaction ${request.params.id} not found.`);
      await readablePolicy(context, request, row.policyId);
      if (row.oosStatus !== 'conflicts' || row.status !== 'in_progress') {
        throw new ApiError(409, 'Only an out-of-sequence endorsement under review can be committed.');
      }
      const [queued] = await db
        .update(policyTransaction)
        .set({
          status: 'initiated',
          oosStatus: 'reviewed',
          input: { ...row.input, confirmOos: true },
          updatedAt: new Date(),
        })
        .where(eq(policyTransaction.id, row.id))
        .returning();
      await context.jobs.send(TRANSACTION_QUEUE, { transactionId: row.id });
      reply.code(202);
      return transactionView(queued!);
    },
  );

  router.post(
    '/policies/renewal-runs/',
    {
      config: { access: can('transaction', 'renew') },
      schema: {
        summary: 'Queues a renewal for every in-force policy whose current term expires by the date.',
        tags,
        security,
        body: z.strictObject({ expiring_by: isoDay }),
      },
    },
    async (request, reply) => {
      const due = await db
        .select({ id: policy.id, expiration: sql<string>`max(${policyTerm.expirationDate})::text` })
        .from(policy)
        .innerJoin(policyTerm, eq(policyTerm.policyId, policy.id))
        .where(and(eq(policy.status, 'In Force'), await readScope(context, request)))
        .groupBy(policy.id)
        .having(sql`max(${policyTerm.expirationDate}) <= ${request.body.expiring_by}`)
        .orderBy(asc(policy.id))
        .limit(10_000);
      const ids: number[] = [];
      for (const row of due) {
        if ((await openTransactions(db, row.id)).length) continue;
        const queued = await enqueueTransaction(context, {
          policyId: row.id,
          type: 'renewal',
          effectiveDate: row.expiration,
          description: 'Renewal',
          input: {},
          username: request.principal?.username ?? 'system',
        });
        ids.push(queued.id);
      }
      reply.code(202);
      return { total: ids.length, transaction_ids: ids };
    },
  );

  router.post(
    '/policies/renewal-runs/progress/',
    {
      config: { access: can('transaction', 'read') },
      schema: {
        summary: 'How far a renewal run is: its transactions by status.',
        tags,
        security,
        body: z.strictObject({ transaction_ids: z.array(intId()).max(10_000) }),
      },
    },
    async (request) => {
      const ids = request.body.transaction_ids;
      const rows = ids.length
        ? await db
            .select({ status: policyTransaction.status, n: sql<number>`count(*)::int` })
            .from(policyTransaction)
            .innerJoin(policy, eq(policy.id, policyTransaction.policyId))
            .where(and(inArray(policyTransaction.id, ids), await readScope(context, request)))
            .groupBy(policyTransaction.status)
        : [];
      const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      return {
        total: ids.length,
        completed: count('completed'),
        failed: count('failed'),
        pending: count('initiated') + count('in_progress'),
      };
    },
  );

  router.get(
    '/policies/compare-transactions/',
    {
      config: { access: can('transaction', 'read') },
      schema: {
        summary: 'Two revisions side by side, factor by factor from their rating worksheets.',
        description:
          'Risk data changes, premium by coverage, and per calculation of the worksheets its value in each ' +
          'revision with the inputs and rate-table reads that moved; the rated premium change and the part of ' +
          'the annual premium change entered without re-rating (not_rated_change).',
        tags,
        security,
        querystring: z.strictObject({
          from_revision: intId(),
          to_revision: intId(),
        }),
      },
    },
    async (request) => {
      const from = await revisionOf(request, { revision_id: request.query.from_revision });
      const to = await revisionOf(request, { revision_id: request.query.to_revision });
      if (from.policy.id !== to.policy.id) throw new ApiError(400, 'Compare two revisions of the same policy.');
      const flat = (risks: unknown) =>
        new Map(formatRisk(risks).flatMap((t) => t.rows.map((r) => [`${t.tab} › ${r.label}`, r.value] as const)));
      const a = flat(from.revision.risks);
      const b = flat(to.revision.risks);
      const changes = [...new Set([...a.keys(), ...b.keys()])]
        .filter((k) => a.get(k) !== b.get(k))
        .map((k) => ({ field: k, from: a.get(k) ?? null, to: b.get(k) ?? null }));
      const ca = new Map(coveragesOf(from.revision.worksheet).map((c) => [c.name, c]));
      const cb = new Map(coveragesOf(to.revision.worksheet).map((c) => [c.name, c]));
      const coverages = [...new Set([...ca.keys(), ...cb.keys()])].map((name) => ({
        name,
        from: ca.get(name)?.premium ?? null,
        to: cb.get(name)?.premium ?? null,
        change: cents(new Decimal(cb.get(name)?.premium ?? 0).minus(ca.get(name)?.premium ?? 0)),
      }));
      return {
        from: revisionView(from.revision, from.policy, from.term),
        to: revisionView(to.revision, to.policy, to.term),
        annual_premium_change: cents(new Decimal(to.revision.annualPremium).minus(from.revision.annualPremium)),
        changes,
        coverages,
        ...premiumExplained(from.revision, to.revision),
        calculations: compareWorksheets(from.revision.worksheet, to.revision.worksheet),
      };
    },
  );

  router.get(
    '/policies/get-dec-file-id/',
    {
      config: { access: readPolicy },
      schema: {
        summary: 'The declaration file of a revision, produced by the documents module on the first request.',
        description:
          "Answers the spec's revision file shape (declaration, title, label 'Declaration', mime_type, url) " +
          "with file_id: the documents module's production document (dec page + forms). Without a dec page " +
          'for the line, file_id, title, mime_type and url are null and detail says why (docs/policies.md, "Declarations").',
        tags,
        security,
        querystring: revisionQuery,
      },
    },
    async (request) => {
      const row = await revisionOf(request, request.query);
      const file = await declarationsOf(context, db, row, request.principal.username);
      return file.fileId === null
        ? {
            revision_id: row.revision.id,
            file_id: null,
            declaration: true,
            title: null,
            label: 'Declaration',
            mime_type: null,
            url: null,
            detail: file.detail,
          }
        : {
            revision_id: row.revision.id,
            file_id: file.fileId,
            declaration: true,
            title: file.title,
            label: 'Declaration',
            mime_type: file.mimeType,
            url: file.url,
          };
    },
  );

  router.get(
    '/policies/failed-renewals/',
    {
      config: { access: can('transaction', 'read') },
      schema: {
        summary: 'Renewals that failed and were not dismissed, with their reason.',
        tags,
        security,
        querystring: z.strictObject({
          page: intId().max(100_000).default(1),
          size: intId().max(100).default(15),
          sort: z.enum(['date_created', '-date_created', 'policy_number', '-policy_number']).default('-date_created'),
          search: z.string().trim().max(200).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const where = and(
        eq(policyTransaction.type, 'renewal'),
        eq(policyTransaction.status, 'failed'),
        sql`${policyTransaction.reasonDismissed} is null`,
        q.search
          ? or(ilike(policy.number, likeText(q.search)), ilike(policy.namedInsuredName, likeText(q.search)))
          : undefined,
        await readScope(context, request),
      );
      const order = {
        date_created: [asc(policyTransaction.createdAt)],
        '-date_created': [desc(policyTransaction.createdAt)],
        policy_number: [asc(policy.number)],
        '-policy_number': [desc(policy.number)],
      }[q.sort];
      const [{ n }] = (await db
        .select({ n: sql<number>`count(*)::int` })
        .from(policyTransaction)
        .innerJoin(policy, eq(policy.id, policyTransaction.policyId))
        .where(where)) as [{ n: number }];
      const rows = await db
        .select({ t: policyTransaction, p: policy })
        .from(policyTransaction)
        .innerJoin(policy, eq(policy.id, policyTransaction.policyId))
        .where(where)
        .orderBy(...order, desc(policyTransaction.id))
        .limit(q.size)
        .offset((q.page - 1) * q.size);
      return page(
        rows.map(({ t, p }) => ({
          ...transactionView(t),
          policy_number: p.number,
          primary_insured: p.namedInsuredName,
        })),
        n,
        q.page,
        q.size,
      );
    },
  );

  const policyBody = z.strictObject({ policy_id: intId('Name the policy.') });
  router.post(
    '/v2/payments/retrieve_policy_billing_information',
    {
      config: { access: can('billing', 'read') },
      schema: {
        summary: 'Billing of a policy: installments, invoices, payments, balance.',
        tags,
        security,
        body: policyBody,
      },
    },
    async (request) => billingInformation(context, await readablePolicy(context, request, request.body.policy_id)),
  );
  router.post(
    '/v2/accounting/get_invoices',
    {
      config: { access: can('billing', 'read') },
      schema: { summary: 'Invoices of a policy.', tags, security, body: policyBody },
    },
    async (request) => {
      const p = await readablePolicy(context, request, request.body.policy_id);
      const rows = await db.select().from(invoice).where(eq(invoice.policyId, p.id)).orderBy(asc(invoice.invoiceDate));
      return { invoices: rows.map(invoiceView) };
    },
  );

  // Policy types and statuses: maintainable lookups (spec §2).
  for (const [path, table, what] of [
    ['policy-types', policyType, 'Policy type'],
    ['policy-statuses', policyStatus, 'Policy status'],
  ] as const) {
    const body = z.strictObject({ name: z.string().trim().min(1, 'This field is required.').max(100) });
    const view = (r: { id: number; name: string }) => ({ id: r.id, name: r.name });
    router.get(
      `/policies/${path}/`,
      { config: { access: can('lookup', 'read') }, schema: { summary: `${what}s.`, tags, security } },
      async () => {
        const rows = await db.select().from(table).orderBy(asc(table.name));
        return { count: rows.length, next: null, previous: null, results: rows.map(view) };
      },
    );
    router.post(
      `/policies/${path}/`,
      {
        config: { access: can('lookup', 'create') },
        schema: { summary: `Creates a ${what.toLowerCase()}.`, tags, security, body },
      },
      async (request, reply) => {
        const [dupe] = await db.select().from(table).where(eq(table.name, request.body.name));
        if (dupe) throw new ApiError(409, `${what} ${request.body.name} already exists.`);
        const [row] = await db.insert(table).values({ name: request.body.name }).returning();
        reply.code(201);
        return view(row!);
      },
    );
    router.put(
      `/policies/${path}/:id/`,
      {
        config: { access: can('lookup', 'update') },
        schema: { summary: `Renames a ${what.toLowerCase()}.`, tags, security, params: idParam, body },
      },
      async (request) => {
        const [row] = await db
          .update(table)
          .set({ name: request.body.name })
          .where(eq(table.id, request.params.id))
          .returning();
        if (!row) throw new ApiError(404, `${what} ${request.params.id} not found.`);
        return view(row);
      },
    );
    router.delete(
      `/policies/${path}/:id/`,
      {
        config: { access: can('lookup', 'delete') },
        schema: { summary: `Deletes a ${what.toLowerCase()}.`, tags, security, params: idParam },
      },
      async (request, reply) => {
        const [row] = await db.delete(table).where(eq(table.id, request.params.id)).returning();
        if (!row) throw new ApiError(404, `${what} ${request.params.id} not found.`);
        reply.code(204);
        return null;
      },
    );
  }
  void linkedPolicy;
}

const gatewayPolicy = z.strictObject({ policyId: intId('Name the policy.') });

/**
 * The classic gateway's policy calls (spec: cancellation, reinstatement, renewal status, linked
 * policies with page size 6; policies.views retrievePolicies). Errors carry the spec's messages.
 */
export function policyGatewayMethods(): GatewayMethod<any>[] {
  const scoped = async (call: { request: FastifyRequest; context: ServerPluginContext }, id: number) =>
    readablePolicy(call.context, call.request, id);
  return [
    defineGatewayMethod({
      file: 'policies.views',
      method: 'retrievePolicies',
      summary: 'A page of policies by number or insured (policy quick search).',
      access: can('policy', 'read'),
      body: z.strictObject({
        filter: z.string().max(50).optional(),
        searchString: z.string().max(200).optional(),
        currentPage: intId().max(100_000).default(1),
        pageSize: intId().max(100).default(5),
      }),
      async handler(input, { request, context }) {
        const text = input.searchString?.trim();
        const where = and(
          text
            ? input.filter === 'number'
              ? ilike(policy.number, likeText(text))
              : input.filter === 'primary_insured'
                ? ilike(policy.namedInsuredName, likeText(text))
                : or(ilike(policy.number, likeText(text)), ilike(policy.namedInsuredName, likeText(text)))
            : undefined,
          await readScope(context, request),
        );
        const rows = await context.db
          .select()
          .from(policy)
          .where(where)
          .orderBy(desc(policy.createdAt), desc(policy.id))
          .limit(input.pageSize)
          .offset((input.currentPage - 1) * input.pageSize);
        return {
          policies: rows.map((p) => ({
            id: p.id,
            policyNumber: p.number,
            primaryInsured: p.namedInsuredName,
            status: p.status,
            product: p.productSlug,
          })),
        };
      },
    }),
    defineGatewayMethod({
      file: 'policies.cancellation',
      method: 'retrieveCancellationInfo',
      summary: 'Whether a cancellation notice is pending, and the reasons a policy can be canceled for.',
      access: can('policy', 'read'),
      body: gatewayPolicy,
      async handler(input, call) {
        const p = await scoped(call, input.policyId);
        return {
          cancellationPendingNotice: p.cancellationPending
            ? { date: p.cancellationPendingDate, reason: p.cancellationPendingReason }
            : null,
          reasons: CANCELLATION_REASONS,
        };
      },
    }),
    defineGatewayMethod({
      file: 'policies.cancellation',
      method: 'setCancellationPending',
      summary: 'Sends (or withdraws) a notice of cancellation: the policy stays in force until it is canceled.',
      access: can('policy', 'update'),
      body: z.strictObject({
        policyId: intId(),
        pending: z.boolean(),
        date: isoDay.optional(),
        reasonId: z.coerce.number().int().optional(),
      }),
      async handler(input, call) {
        const p = await scoped(call, input.policyId);
        if (input.pending && p.status === 'Canceled') throw new ApiError(409, 'The policy is already canceled.');
        const reason = CANCELLATION_REASONS.find((r) => r.reasonId === input.reasonId)?.reason ?? null;
        await call.context.db
          .update(policy)
          .set({
            cancellationPending: input.pending,
            cancellationPendingDate: input.pending ? (input.date ?? today()) : null,
            cancellationPendingReason: input.pending ? reason : null,
          })
          .where(eq(policy.id, p.id));
        return { cancellationPending: input.pending };
      },
    }),
    defineGatewayMethod({
      file: 'policies.reinstatement',
      method: 'retrieveReinstatementInfo',
      summary: 'Whether a policy can be reinstated, and from which date.',
      access: can('policy', 'read'),
      body: gatewayPolicy,
      async handler(input, call) {
        const p = await scoped(call, input.policyId);
        const { revisions } = await policyHistory(call.context.db, p.id);
        const last = revisions.at(-1);
        const canceled = last?.policyStatus.startsWith('Canceled') ?? false;
        return {
          canReinstate: canceled,
          canceledOn: canceled ? last!.revisionDate : null,
          cancellationStatus: canceled ? last!.policyStatus : null,
        };
      },
    }),
    defineGatewayMethod({
      file: 'policies.renewal',
      method: 'retrieveRenewalStatus',
      summary: 'The renewal status of a policy: renewed, renewal failed, due, or not renewable.',
      access: can('policy', 'read'),
      body: gatewayPolicy,
      async handler(input, call) {
        const p = await scoped(call, input.policyId);
        const db = call.context.db;
        const terms = await db
          .select()
          .from(policyTerm)
          .where(eq(policyTerm.policyId, p.id))
          .orderBy(asc(policyTerm.number));
        const [lastRenewal] = await db
          .select()
          .from(policyTransaction)
          .where(and(eq(policyTransaction.policyId, p.id), eq(policyTransaction.type, 'renewal')))
          .orderBy(desc(policyTransaction.id))
          .limit(1);
        const status =
          p.status === 'Canceled'
            ? 'not_renewable'
            : lastRenewal?.status === 'failed' && !lastRenewal.reasonDismissed
              ? 'failed'
              : terms.length > 1
                ? 'renewed'
                : 'due';
        return {
          status,
          renewedTerms: terms.length - 1,
          currentTerm: terms.at(-1)
            ? { effectiveDate: terms.at(-1)!.effectiveDate, expirationDate: terms.at(-1)!.expirationDate }
            : null,
          lastRenewal: lastRenewal ? transactionView(lastRenewal) : null,
        };
      },
    }),
    defineGatewayMethod({
      file: 'policies.linked',
      method: 'retrieveLinkedPolicies',
      summary: 'Policies linked to a policy (page size 6).',
      access: can('policy', 'read'),
      body: z.strictObject({
        policyId: intId(),
        currentPage: intId().max(100_000).default(1),
        pageSize: intId().max(6).default(6),
      }),
      async handler(input, call) {
        const p = await scoped(call, input.policyId).catch(() => {
          throw new ApiError(404, 'The system was unable to retrieve the linked policies');
        });
        const db = call.context.db;
        const links = await db
          .select()
          .from(linkedPolicy)
          .where(eq(linkedPolicy.policyId, p.id))
          .orderBy(asc(linkedPolicy.id));
        const ids = links.map((l) => l.linkedPolicyId);
        const rows = ids.length
          ? await db
              .select()
              .from(policy)
              .where(and(inArray(policy.id, ids), await readScope(call.context, call.request)))
          : [];
        const start = (input.currentPage - 1) * input.pageSize;
        return {
          count: rows.length,
          policies: rows
            .slice(start, start + input.pageSize)
            .map((r) => ({ id: r.id, policyNumber: r.number, primaryInsured: r.namedInsuredName, status: r.status })),
        };
      },
    }),
    defineGatewayMethod({
      file: 'policies.linked',
      method: 'linkPolicy',
      summary: 'Links two policies.',
      access: can('policy', 'update'),
      body: z.strictObject({
        policyId: intId(),
        linkedPolicyId: intId(),
      }),
      async handler(input, call) {
        const failure = new ApiError(400, 'The system was unable to link the policy');
        if (input.policyId === input.linkedPolicyId) throw failure;
        await scoped(call, input.policyId).catch(() => Promise.reject(failure));
        await scoped(call, input.linkedPolicyId).catch(() => Promise.reject(failure));
        await call.context.db
          .insert(linkedPolicy)
          .values({ policyId: input.policyId, linkedPolicyId: input.linkedPolicyId })
          .onConflictDoNothing();
        return { linked: true };
      },
    }),
    defineGatewayMethod({
      file: 'policies.linked',
      method: 'removeLinkedPolicy',
      summary: 'Removes a link between two policies.',
      access: can('policy', 'update'),
      body: z.strictObject({
        policyId: intId(),
        linkedPolicyId: intId(),
      }),
      async handler(input, call) {
        await scoped(call, input.policyId).catch(() =>
          Promise.reject(new ApiError(404, 'The system was unable to remove the linked policy')),
        );
        const removed = await call.context.db
          .delete(linkedPolicy)
          .where(and(eq(linkedPolicy.policyId, input.policyId), eq(linkedPolicy.linkedPolicyId, input.linkedPolicyId)))
          .returning();
        if (!removed.length) throw new ApiError(404, 'The system was unable to remove the linked policy');
        return { message: 'Policy link removed successfully' };
      },
    }),
  ];
}

export const CANCELLATION_REASONS = [
  { reasonId: 1, reason: 'Insured request' },
  { reasonId: 2, reason: 'Non-payment of premium' },
  { reasonId: 3, reason: 'Underwriting reasons' },
  { reasonId: 4, reason: 'Material misrepresentation' },
];
