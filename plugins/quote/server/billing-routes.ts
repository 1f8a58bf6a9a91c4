import { quoteBound, quoteEventStatement } from './events.js';
import { and, asc, eq, sql } from 'drizzle-orm';
import { POLICY_BILLING, POLICY_ISSUANCE } from '@atrium/plugin-policies/services';
import {
  badRequest,
  conflict,
  notFound,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { can } from './permissions.js';
import { looksLikeAccountNumber, testPaymentProcessor, type PaymentProcessor } from './payment-processor.js';
import { quoteScope } from './quote-access.js';
import { assertQuotingPermission, findQuoteWithGrants } from './quoting-permissions.js';
import { blockedError, blockingIssues, loadState, type QuoteRow } from './quote-service.js';
import { money, quoteNumberParams } from './schemas.js';
import { paymentMethod, quote } from './tables.js';
import { summary } from './routes.js';

const tags = ['quote: billing and bind'];
const security = [{ bearer: [] as string[] }];

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.');

/**
 * Billing (previews and the chosen schedule), payment method tokens and bind. Billing schedules and
 * installments are the policies module's (POLICY_BILLING); bind asks POLICY_ISSUANCE for the policy,
 * term, first revision and installments inside the quote's own transaction.
 */
export function billingRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  processor: PaymentProcessor = testPaymentProcessor,
): void {
  const db = context.db;
  const billing = () => context.service(POLICY_BILLING);

  const findQuote = async (tx: Queryable, request: FastifyRequest, number: string, action: string, lock = false) => {
    const scope = await quoteScope(context, request.principal, action);
    const query = tx
      .select()
      .from(quote)
      .where(and(eq(quote.number, number), scope))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw notFound(`Quote ${number} not found.`);
    return row;
  };

  const methodsOf = async (tx: Queryable, quoteId: number) =>
    (
      await tx.select().from(paymentMethod).where(eq(paymentMethod.quoteId, quoteId)).orderBy(asc(paymentMethod.id))
    ).map((m) => ({ id: m.id, type: m.type, last4: m.last4, expiry: m.expiry, processor: m.processor }));

  const billingOut = async (tx: Queryable, row: QuoteRow) => ({
    quote_number: row.number,
    billing_schedule_id: row.billingScheduleId,
    payment_method_id: row.paymentMethodId,
    schedules: await billing().listSchedules(tx, { productSlug: row.productName }),
    payment_methods: await methodsOf(tx, row.id),
    premium: row.premiumTerm,
  });

  router.get(
    '/quote/:number/billing/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'The quote’s billing: schedules offered, the chosen one, payment methods.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => billingOut(db, await findQuote(db, request, request.params.number, 'read')),
  );

  router.get(
    '/quote/:number/billing/config/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'What billing may be chosen: schedules, payment method types, the processor.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number, 'read');
      return {
        schedules: await billing().listSchedules(db, { productSlug: row.productName }),
        payment_method_types: ['card', 'ach'],
        processor: processor.name,
      };
    },
  );

  router.post(
    '/quote/:number/billing/',
    {
      config: { access: can('quote', 'update'), jsonapi: true },
      schema: {
        summary: 'Chooses the billing schedule (and payment method) of the quote (JSON:API).',
        tags,
        security,
        params: quoteNumberParams,
        body: z.strictObject({
          data: z.strictObject({
            type: z.literal('billing'),
            attributes: z.strictObject({
              billing_schedule_id: z.string().trim().min(1).max(100),
              payment_method_id: z.number().int().positive().nullable().optional(),
            }),
          }),
        }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'update', true);
        if (row.isBound) throw conflict(`Quote ${row.number} is bound.`, { code: 'locked' });
        const attributes = request.body.data.attributes;
        const schedules = await billing().listSchedules(tx, { productSlug: row.productName });
        const schedule = schedules.find((s) => s.id === attributes.billing_schedule_id);
        if (!schedule) {
          throw badRequest(
            `Billing schedule ${attributes.billing_schedule_id} is not offered for ${row.productLabel}.`,
            {
              source: { pointer: '/data/attributes/billing_schedule_id' },
            },
          );
        }
        let methodId = attributes.payment_method_id ?? row.paymentMethodId;
        if (attributes.payment_method_id) {
          const methods = await methodsOf(tx, row.id);
          const method = methods.find((m) => m.id === attributes.payment_method_id);
          if (!method)
            throw badRequest(`Payment method ${attributes.payment_method_id} not found.`, {
              source: { pointer: '/data/attributes/payment_method_id' },
            });
          if (!schedule.paymentMethods.includes(method.type)) {
            throw badRequest(`${schedule.name} does not take ${method.type} payments.`, {
              source: { pointer: '/data/attributes/payment_method_id' },
            });
          }
        }
        methodId = methodId ?? null;
        await tx
          .update(quote)
          .set({ billingScheduleId: schedule.id, paymentMethodId: methodId, updatedAt: new Date() })
          .where(eq(quote.id, row.id));
        const out = await billingOut(tx, { ...row, billingScheduleId: schedule.id, paymentMethodId: methodId });
        return { data: { type: 'billing', id: row.number, attributes: out } };
      }),
  );

  router.post(
    '/v2/billing/get_installments_preview',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Installments of each schedule for a premium from an effective date (policies module’s preview).',
        tags,
        security,
        body: z.strictObject({
          billing_schedule_ids: z.array(z.string().min(1).max(100)).min(1).max(20),
          effective_date: isoDay,
          premium: money,
          payment_method: z.string().max(20).nullable().optional(),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const previews = await billing().previewInstallments(db, {
        scheduleIds: body.billing_schedule_ids,
        effectiveDate: body.effective_date,
        premium: body.premium,
        paymentMethod: body.payment_method ?? null,
      });
      return { success: true, previews };
    },
  );

  router.post(
    '/v2/payments/add_payment_method',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary:
          'Adds a tokenised payment method to a quote: the processor token, type, last four digits and expiry. A full card or account number is refused.',
        tags,
        security,
        body: z.record(z.string().max(100), z.unknown()),
      },
    },
    async (request, reply) => {
      const raw = request.body as Record<string, unknown>;
      // Refuse anything that carries a full number, whatever the key, before reading the rest.
      for (const [key, value] of Object.entries(raw)) {
        if (key !== 'last4' && key !== 'quote_number' && looksLikeAccountNumber(value)) {
          throw badRequest('Send the processor’s token, never a full card or account number.', {
            code: 'account_number_refused',
            source: { pointer: `/${key}` },
          });
        }
      }
      const parsed = z
        .strictObject({
          quote_number: z.string().trim().min(1).max(40),
          token: z.string().trim().min(1).max(200),
          type: z.enum(['card', 'ach']),
          last4: z.string().regex(/^\d{4}$/, 'last4 holds the last four digits.'),
          expiry: z
            .string()
            .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Enter the expiry as MM/YY.')
            .nullable()
            .optional(),
        })
        .safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw badRequest(issue.message, { source: { pointer: `/${issue.path.join('/')}` } });
      }
      const input = parsed.data;
      if (input.type === 'card' && !input.expiry)
        throw badRequest('A card needs its expiry.', { source: { pointer: '/expiry' } });
      const verified = await processor.verify({
        token: input.token,
        type: input.type,
        last4: input.last4,
        expiry: input.expiry ?? null,
      });
      if (!verified)
        throw badRequest('The payment processor does not know this token.', { source: { pointer: '/token' } });
      const out = await db.transaction(async (tx) => {
        const row = await findQuote(tx, request, input.quote_number, 'update', true);
        if (row.isBound) throw conflict(`Quote ${row.number} is bound.`, { code: 'locked' });
        const [created] = await tx
          .insert(paymentMethod)
          .values({
            quoteId: row.id,
            processor: processor.name,
            token: verified.token,
            type: verified.type,
            last4: verified.last4,
            expiry: verified.expiry,
            createdBy: request.principal?.username ?? 'system',
          })
          .returning();
        await tx.update(quote).set({ paymentMethodId: created!.id, updatedAt: new Date() }).where(eq(quote.id, row.id));
        return {
          success: true,
          payment_method: { id: created!.id, type: created!.type, last4: created!.last4, expiry: created!.expiry },
        };
      });
      reply.code(201);
      return out;
    },
  );

  /** Bind: the policy, term, first revision and installments, in the quote's transaction. */
  const bind = async (request: FastifyRequest, number: string) =>
    db.transaction(async (tx) => {
      const found = await findQuoteWithGrants(context, tx, request.principal, number, 'bind');
      if (!found) throw notFound(`Quote ${number} not found.`);
      const { row, grants } = found;
      const product = { name: row.productName, label: row.productLabel };
      await assertQuotingPermission(context, tx, request.principal, 'bind', product, row.state, grants);
      if (row.isBound)
        throw conflict(`Quote ${row.number} is already bound (policy ${row.policyNumber}).`, { code: 'bound' });
      if (row.status !== 'Approved')
        throw conflict(`Only an Approved quote can be bound; this one is ${row.status}.`, { code: 'status' });
      if (!row.lastRatedAt || row.ratingStale || row.premiumTerm === null) {
        throw conflict('Rate the quote before binding it.', { code: 'not_rated' });
      }
      // Issues and tree in one read after the lock. No `is_binding` mark: it was set and cleared in
      // this one transaction, so nobody else could ever see it (the lock serialises binds).
      const { issues, tree } = await loadState(tx, row.id);
      const blocking = blockingIssues(issues, 'bind');
      if (blocking.length > 0) throw blockedError('bound', blocking);
      const insured = row.namedInsureds[0] ?? { contactId: null, name: 'Named insured' };
      const issued = await context.service(POLICY_ISSUANCE).issuePolicy(tx, {
        quoteId: String(row.id),
        quoteNumber: row.number,
        productSlug: row.productName,
        productVersionId: row.productVersionId === null ? null : String(row.productVersionId),
        state: row.state,
        effectiveDate: row.effectiveDate,
        expirationDate: row.expirationDate,
        namedInsured: insured,
        agentContactId: row.agentContactId,
        agencyContactId: row.agencyContactId,
        premium: row.premiumTerm,
        worksheet: row.worksheet,
        risks: tree,
        billing: row.billingScheduleId
          ? {
              scheduleId: row.billingScheduleId,
              paymentMethodId: row.paymentMethodId ? String(row.paymentMethodId) : null,
            }
          : null,
        issuedBy: request.principal?.username ?? 'system',
      });
      const now = new Date();
      const bound = {
        isBound: true,
        isBinding: false,
        locked: true,
        policyId: issued.policyId,
        policyNumber: issued.policyNumber,
        updatedAt: now,
      };
      // The row as updated (every changed column is in `bound`): not read again.
      const fresh: QuoteRow = { ...row, ...bound };
      const by = request.principal?.username ?? 'system';
      const event = quoteEventStatement(quoteBound, fresh, {
        from: row.status,
        trigger: 'bind',
        reason: `Policy ${issued.policyNumber}`,
        by,
      });
      // The bound mark, its history line and the bound event in one statement.
      await tx.execute(sql`with bound as (
          update quote.quote set is_bound = true, is_binding = false, locked = true, policy_id = ${issued.policyId},
            policy_number = ${issued.policyNumber}, updated_at = ${now.toISOString()}::timestamptz
          where id = ${row.id}
        ), outbox as (${event})
        insert into quote.status_history (quote_id, from_status, to_status, trigger, reason, changed_by)
        values (${row.id}, ${row.status}, ${row.status}, 'bind', ${`Policy ${issued.policyNumber}`}, ${by})`);
      return { quote: fresh, issued };
    });

  router.post(
    '/quote/:number/bind_requested/',
    {
      config: { access: can('quote', 'bind') },
      schema: {
        summary:
          'Binds the Approved quote: the policies module issues the policy; answers the quote with its policy number.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const { quote: row, issued } = await bind(request, request.params.number);
      return {
        ...summary(row),
        policy: {
          id: issued.policyId,
          policy_number: issued.policyNumber,
          revision_id: issued.revisionId,
          revision: issued.revisionNumber,
        },
      };
    },
  );

  router.post(
    '/v2/policies/create_policy',
    {
      config: { access: can('quote', 'bind') },
      schema: {
        summary: 'Creates the policy of an Approved quote (classic call): success, policy number and revision.',
        tags,
        security,
        body: z.strictObject({ quote_number: z.string().trim().min(1).max(40) }),
      },
    },
    async (request) => {
      const { issued } = await bind(request, request.body.quote_number);
      return {
        success: true,
        policy_id: issued.policyId,
        policy_number: issued.policyNumber,
        revision_id: issued.revisionId,
        revision: issued.revisionNumber,
      };
    },
  );
}
