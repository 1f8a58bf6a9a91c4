import { and, asc, desc, eq, getTableColumns, gt, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import { ApiError, eventStatement, type Queryable } from '@atrium/sdk/server';
import { policyIssued } from './events.js';
import type {
  BillingScheduleSummary,
  InstallmentPreview,
  IssuePolicyInput,
  IssuedPolicy,
  PolicyAtDate,
  PolicyBilling,
  PolicyIssuance,
  PolicyLookup,
  PolicySummary,
} from '../shared/policy-services.js';
import { Decimal, cents, daysBetween, installments } from './premium.js';
import {
  billingSchedule,
  policy,
  policyNumber,
  policyRevision,
  policyTerm,
  type RevisionContact,
  type ShortRateRule,
} from './tables.js';

export type PolicyRow = typeof policy.$inferSelect;
export type RevisionRow = typeof policyRevision.$inferSelect;
export type TermRow = typeof policyTerm.$inferSelect;

/** `%`, `_` and `\` are literal in a search text. */
export const likeText = (value: string) => `%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const PREFIXES: Record<string, string> = { homeowners: 'HO', personal_auto: 'PA' };
export const policyPrefix = (productSlug: string) =>
  PREFIXES[productSlug] ??
  (productSlug
    .split(/[_\s-]+/)
    .map((w) => w[0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, 3) ||
    'POL');

export const productTitle = (slug: string) =>
  ({ homeowners: 'Homeowners', personal_auto: 'Personal Auto' })[slug] ??
  slug.replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** The short rate each demo product files: homeowners a days table, personal auto 90% of pro rata. */
export const DEFAULT_SHORT_RATES: Record<string, ShortRateRule> = {
  homeowners: {
    kind: 'table',
    table: [
      { maxDays: 30, retainedPercent: '20' },
      { maxDays: 90, retainedPercent: '40' },
      { maxDays: 180, retainedPercent: '60' },
      { maxDays: 270, retainedPercent: '80' },
      { maxDays: 366, retainedPercent: '100' },
    ],
  },
};
export const shortRateFor = (productSlug: string): ShortRateRule =>
  DEFAULT_SHORT_RATES[productSlug] ?? { kind: 'factor', factor: '0.90' };

export function toSummary(row: PolicyRow, term: Pick<TermRow, 'effectiveDate' | 'expirationDate'>): PolicySummary {
  return {
    policyId: String(row.id),
    policyNumber: row.number,
    productSlug: row.productSlug,
    status: row.status,
    namedInsured: { contactId: row.namedInsuredContactId, name: row.namedInsuredName },
    agentContactId: row.agentContactId,
    agencyContactId: row.agencyContactId,
    termEffectiveDate: term.effectiveDate,
    termExpirationDate: term.expirationDate,
  };
}

const moneyText = (value: string, field: string) => {
  try {
    const d = new Decimal(value);
    if (!d.isFinite()) throw new Error();
    return cents(d);
  } catch {
    throw new ApiError(400, `${field} must be a decimal amount.`);
  }
};

/** Creates policy, term 1, revision 1, the new business transaction and the installments. */
export async function issuePolicy(tx: Queryable, input: IssuePolicyInput): Promise<IssuedPolicy> {
  const premium = moneyText(input.premium, 'The premium');
  if (daysBetween(input.effectiveDate, input.expirationDate) <= 0) {
    throw new ApiError(400, 'The expiration date must be after the effective date.');
  }
  void policyNumber;
  // The schedule first: its installments are computed here, then written with the policy.
  const scheduleId = input.billing?.scheduleId ?? 'annual';
  // With it, the policy's id and number from their sequences (only when the schedule exists): the
  // issued event, which names both, is then written in the policy's own statement.
  const [found] = await tx
    .select({
      ...getTableColumns(billingSchedule),
      policyId: sql<number>`nextval(pg_get_serial_sequence('policies.policy', 'id'))::int`,
      policySequence: sql<string>`nextval('policies.policy_number'::regclass)::text`,
    })
    .from(billingSchedule)
    .where(eq(billingSchedule.id, scheduleId));
  if (!found) throw new ApiError(400, `Billing schedule ${scheduleId} does not exist.`);
  const { policyId, policySequence, ...schedule } = found;
  const number = `${policyPrefix(input.productSlug)}-${policySequence}`;
  const method = input.billing?.paymentMethodId ? (schedule.paymentMethods[0] ?? null) : null;
  const rows = installments(schedule, premium, input.effectiveDate, method);
  const contacts: RevisionContact[] = [
    {
      contactId: input.namedInsured.contactId,
      name: input.namedInsured.name,
      namedInsured: true,
      additionalInterest: false,
      agent: false,
      interest: null,
    },
  ];
  const json = (value: unknown) => sql`${value === null ? null : JSON.stringify(value)}::jsonb`;
  // In the bind's transaction: the event exists exactly when the policy does.
  const event = eventStatement(
    policyIssued,
    {
      policy_id: String(policyId),
      policy_number: number,
      product_slug: input.productSlug,
      quote_number: input.quoteNumber,
      named_insured_name: input.namedInsured.name,
      named_insured_contact_id: input.namedInsured.contactId,
      effective_date: input.effectiveDate,
      expiration_date: input.expirationDate,
      premium,
      issued_by: input.issuedBy,
    },
    { triggeringUser: input.issuedBy },
  ).statement;
  // Policy, term 1, revision 1, the new business transaction, the installments and the issued event
  // in one statement: six round trips were nearly half of a bind's (P6, issue 20).
  const result = await tx.execute(sql`with created as (
      insert into policies.policy (id, number, product_slug, policy_type_name, state, quote_id, quote_number,
        named_insured_contact_id, named_insured_name, agent_contact_id, agency_contact_id, status, short_rate, created_by)
      overriding system value
      values (${policyId}, ${number},
        ${input.productSlug}, ${productTitle(input.productSlug)}, ${input.state}, ${input.quoteId}, ${input.quoteNumber},
        ${input.namedInsured.contactId}, ${input.namedInsured.name}, ${input.agentContactId}, ${input.agencyContactId},
        'In Force', ${json(shortRateFor(input.productSlug))}, ${input.issuedBy})
      returning id, number
    ), term as (
      insert into policies.policy_term (policy_id, number, effective_date, expiration_date, product_version_id, premium)
      select created.id, 1, ${input.effectiveDate}::date, ${input.expirationDate}::date, ${input.productVersionId},
        ${premium}::numeric
      from created
      returning id, policy_id
    ), revision as (
      insert into policies.policy_revision (policy_id, term_id, number, revision_date, revision_state, policy_status,
        description, quote_number, product_version_id, annual_premium, written_premium, written_premium_delta, risks,
        worksheet, contacts, created_by)
      select term.policy_id, term.id, 1, ${input.effectiveDate}::date, 'committed', 'Active', 'New business',
        ${input.quoteNumber}, ${input.productVersionId}, ${premium}::numeric, ${premium}::numeric, ${premium}::numeric,
        ${json(input.risks ?? null)}, ${json(input.worksheet ?? null)}, ${json(contacts)}, ${input.issuedBy}
      from term
      returning id, term_id, policy_id
    ), transaction as (
      insert into policies.policy_transaction (policy_id, term_id, revision_id, type, description, effective_date,
        status, auto_bind, process_async, input, result, username)
      select revision.policy_id, revision.term_id, revision.id, 'new_business', ${`Bound from quote ${input.quoteNumber}`},
        ${input.effectiveDate}::date, 'completed', true, false,
        ${json({ quoteId: input.quoteId, quoteNumber: input.quoteNumber })}, ${json({ writtenPremium: premium })},
        ${input.issuedBy}
      from revision
      returning id, term_id, policy_id
    ), installments as (
      insert into policies.installment (policy_id, term_id, schedule_id, transaction_id, number, due_date, amount, fee,
        payment_method_id)
      select transaction.policy_id, transaction.term_id, ${scheduleId}, transaction.id, x.number, x.due_date, x.amount,
        x.fee, ${input.billing?.paymentMethodId ?? null}
      from transaction,
        json_to_recordset(${JSON.stringify(rows.map((r) => ({ number: r.number, due_date: r.dueDate, amount: r.amount, fee: r.fee })))}::json)
          as x(number int, due_date date, amount numeric, fee numeric)
      order by x.number
    ), outbox as (${event})
    select revision.id as revision_id from revision`);
  const [issued] = result.rows as { revision_id: number }[];
  return {
    policyId: String(policyId),
    policyNumber: number,
    revisionId: String(issued!.revision_id),
    revisionNumber: 1,
  };
}

export const issuanceService = (): PolicyIssuance => ({ issuePolicy });

export function billingService(): PolicyBilling {
  return {
    async listSchedules(tx, { productSlug }) {
      const own = await tx
        .select()
        .from(billingSchedule)
        .where(and(eq(billingSchedule.active, true), eq(billingSchedule.productSlug, productSlug)))
        .orderBy(asc(billingSchedule.sortOrder));
      const rows = own.length
        ? own
        : await tx
            .select()
            .from(billingSchedule)
            .where(and(eq(billingSchedule.active, true), sql`${billingSchedule.productSlug} is null`))
            .orderBy(asc(billingSchedule.sortOrder));
      return rows.map((row): BillingScheduleSummary => ({
        id: row.id,
        name: row.name,
        paymentMethods: row.paymentMethods,
        installmentCount: row.factors.length,
      }));
    },
    async previewInstallments(tx, { scheduleIds, effectiveDate, premium, paymentMethod }) {
      const amount = moneyText(premium, 'The premium');
      if (scheduleIds.length === 0) return [];
      const rows = await tx.select().from(billingSchedule).where(inArray(billingSchedule.id, scheduleIds));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return scheduleIds.map((id): InstallmentPreview => {
        const schedule = byId.get(id);
        if (!schedule) throw new ApiError(400, `Billing schedule ${id} does not exist.`);
        const lines = installments(schedule, amount, effectiveDate, paymentMethod);
        const total = lines.reduce((sum, line) => sum.plus(line.total), new Decimal(0));
        return { scheduleId: id, scheduleName: schedule.name, installments: lines, total: cents(total) };
      });
    },
  };
}

/** Coverages of a worksheet: each rated item's premium, limit and deductible (summed over risks). */
export function coveragesOf(worksheet: unknown): PolicyAtDate['coverages'] {
  const root = (worksheet as { root?: unknown } | null)?.root;
  if (!root) return [];
  const found = new Map<string, PolicyAtDate['coverages'][number]>();
  const visit = (risk: {
    calculations?: {
      item?: string;
      skipped?: string;
      value?: string;
      inputs?: { kind: string; name: string; value: string }[];
    }[];
    children?: unknown[];
  }) => {
    for (const line of risk.calculations ?? []) {
      if (!line.item || line.skipped) continue;
      const entry = found.get(line.item) ?? { name: line.item, limit: null, deductible: null, premium: null };
      for (const input of line.inputs ?? []) {
        if (input.kind === 'limit' && entry.limit === null) entry.limit = input.value;
        if (input.kind === 'deductible' && entry.deductible === null) entry.deductible = input.value;
      }
      if (line.value !== undefined) entry.premium = cents(new Decimal(entry.premium ?? 0).plus(line.value));
      found.set(line.item, entry);
    }
    for (const child of risk.children ?? []) visit(child as never);
  };
  visit(root as never);
  return [...found.values()];
}

/** Policies joined to their latest term. */
const latestTerms = (tx: Queryable) =>
  tx
    .select({
      policy,
      term: { effectiveDate: policyTerm.effectiveDate, expirationDate: policyTerm.expirationDate },
    })
    .from(policy)
    .innerJoin(
      policyTerm,
      and(
        eq(policyTerm.policyId, policy.id),
        eq(policyTerm.number, sql`(select max(t.number) from policies.policy_term t where t.policy_id = ${policy.id})`),
      ),
    );

export function lookupService(): PolicyLookup {
  return {
    async searchPolicies(tx, { search, limit, producer }) {
      const pattern = likeText(search);
      const rows = await latestTerms(tx)
        .where(
          and(
            or(ilike(policy.number, pattern), ilike(policy.namedInsuredName, pattern)),
            producer?.agentContactId !== undefined ? eq(policy.agentContactId, producer.agentContactId) : undefined,
            producer?.agencyContactId !== undefined ? eq(policy.agencyContactId, producer.agencyContactId) : undefined,
          ),
        )
        .orderBy(desc(policy.createdAt), desc(policy.id))
        .limit(Math.min(Math.max(limit, 1), 100));
      return rows.map((row) => toSummary(row.policy, row.term));
    },
    async getPolicy(tx, policyId) {
      const id = Number(policyId);
      if (!Number.isSafeInteger(id) || id <= 0) return null;
      const [row] = await latestTerms(tx).where(eq(policy.id, id)).limit(1);
      return row ? toSummary(row.policy, row.term) : null;
    },
    async listRevisions(tx, policyId) {
      const id = Number(policyId);
      if (!Number.isSafeInteger(id) || id <= 0) return [];
      const rows = await tx
        .select({ revision: policyRevision, term: policyTerm })
        .from(policyRevision)
        .innerJoin(policyTerm, eq(policyTerm.id, policyRevision.termId))
        .where(and(eq(policyRevision.policyId, id), eq(policyRevision.revisionState, 'committed')))
        .orderBy(desc(policyRevision.number));
      return rows.map(({ revision, term }) => ({
        revisionId: String(revision.id),
        revisionNumber: revision.number,
        revisionDate: revision.revisionDate,
        policyStatus: revision.policyStatus,
        description: revision.description,
        annualPremium: revision.annualPremium,
        termNumber: term.number,
        termEffectiveDate: term.effectiveDate,
        termExpirationDate: term.expirationDate,
      }));
    },
    async policyAtDate(tx, policyId, date) {
      const id = Number(policyId);
      if (!Number.isSafeInteger(id) || id <= 0) return null;
      const [row] = await tx
        .select({ policy, term: policyTerm })
        .from(policy)
        .innerJoin(policyTerm, eq(policyTerm.policyId, policy.id))
        .where(and(eq(policy.id, id), lte(policyTerm.effectiveDate, date), gt(policyTerm.expirationDate, date)))
        .limit(1);
      if (!row) return null;
      const [revision] = await tx
        .select()
        .from(policyRevision)
        .where(
          and(
            eq(policyRevision.termId, row.term.id),
            eq(policyRevision.revisionState, 'committed'),
            lte(policyRevision.revisionDate, date),
          ),
        )
        .orderBy(desc(policyRevision.revisionDate), desc(policyRevision.number))
        .limit(1);
      if (!revision || revision.policyStatus.startsWith('Canceled')) return null;
      return {
        ...toSummary(row.policy, row.term),
        revisionId: String(revision.id),
        revisionNumber: revision.number,
        coverages: coveragesOf(revision.worksheet),
        risks: revision.risks,
      };
    },
  };
}
