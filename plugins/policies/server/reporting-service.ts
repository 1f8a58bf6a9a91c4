import { and, asc, desc, eq, gt, inArray, lte, ne, type SQL } from 'drizzle-orm';
import { provideService, type Principal, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import {
  POLICY_REPORTING,
  PolicyReportingRefused,
  type PolicyReporting,
  type PremiumReportRow,
} from '../shared/reporting-service.js';
import { Decimal, addDays, cents } from './premium.js';
import { readScope } from './routes.js';
import { productTitle } from './services.js';
import { invoice, payment, policy, policyRevision, policyTerm } from './tables.js';
import { termFigures } from './transactions.js';

/**
 * The policies reporting service (shared/reporting-service.ts): written and earned premium per term
 * from the revisions and the earned-premium arithmetic (premium.ts, termFigures), and billing, in
 * the caller's scope (readScope, the policies list's own).
 */

async function scopeOf(
  context: ServerPluginContext,
  caller: Principal,
  resource: 'policy' | 'billing',
): Promise<SQL | undefined> {
  const evaluator = context.services.evaluator;
  if (!evaluator) throw new PolicyReportingRefused();
  const permission = { resource: `policies:${resource}`, action: 'read' };
  if (evaluator.recordFilter) {
    const filter = await evaluator.recordFilter(caller, permission);
    if (filter === false || filter === null) throw new PolicyReportingRefused();
  } else if (!(await evaluator.evaluate(caller, permission)).allowed) {
    throw new PolicyReportingRefused();
  }
  // readScope reads only the request's principal.
  return readScope(context, { principal: caller } as FastifyRequest);
}

export function policyReportingService(context: ServerPluginContext): PolicyReporting {
  return {
    async premium(db, caller, filter) {
      const scope = await scopeOf(context, caller, 'policy');
      const terms = await db
        .select({ policy, term: policyTerm })
        .from(policyTerm)
        .innerJoin(policy, eq(policy.id, policyTerm.policyId))
        .where(
          and(
            lte(policyTerm.effectiveDate, filter.to),
            gt(policyTerm.expirationDate, filter.from),
            filter.productSlug ? eq(policy.productSlug, filter.productSlug) : undefined,
            filter.policyNumbers
              ? inArray(policy.number, filter.policyNumbers.length ? filter.policyNumbers : [''])
              : undefined,
            scope,
          ),
        )
        .orderBy(asc(policy.number), asc(policyTerm.number));
      if (terms.length === 0) return [];
      const revisions = await db
        .select()
        .from(policyRevision)
        .where(
          and(
            inArray(
              policyRevision.termId,
              terms.map((t) => t.term.id),
            ),
            ne(policyRevision.revisionState, 'pending'),
          ),
        )
        .orderBy(asc(policyRevision.termId), asc(policyRevision.number));
      const byTerm = new Map<number, (typeof revisions)[number][]>();
      for (const revision of revisions) {
        const list = byTerm.get(revision.termId) ?? [];
        list.push(revision);
        byTerm.set(revision.termId, list);
      }
      const dayAfter = addDays(filter.to, 1);
      return terms.map(({ policy: p, term }): PremiumReportRow => {
        const all = byTerm.get(term.id) ?? [];
        const committed = all.filter((r) => r.revisionState === 'committed');
        let written = new Decimal(0);
        let commission = new Decimal(0);
        for (const revision of all) {
          if (revision.revisionDate < filter.from || revision.revisionDate > filter.to) continue;
          written = written.plus(revision.writtenPremiumDelta);
          commission = commission.plus(new Decimal(revision.writtenPremiumDelta).times(revision.commissionRate));
        }
        const earned = committed.length
          ? new Decimal(termFigures(term, committed, dayAfter).earned).minus(
              termFigures(term, committed, filter.from).earned,
            )
          : new Decimal(0);
        return {
          policyId: String(p.id),
          policyNumber: p.number,
          productSlug: p.productSlug,
          product: productTitle(p.productSlug),
          namedInsured: p.namedInsuredName,
          agentContactId: p.agentContactId,
          agencyContactId: p.agencyContactId,
          status: p.status,
          termNumber: term.number,
          termEffectiveDate: term.effectiveDate,
          termExpirationDate: term.expirationDate,
          writtenPremium: cents(written),
          earnedPremium: cents(earned),
          commission: cents(commission),
        };
      });
    },
    async policies(db, caller) {
      const scope = await scopeOf(context, caller, 'policy');
      const rows = await db.select().from(policy).where(scope).orderBy(asc(policy.number)).limit(5000);
      return rows.map((p) => ({
        policyId: String(p.id),
        policyNumber: p.number,
        product: productTitle(p.productSlug),
        namedInsured: p.namedInsuredName,
        status: p.status,
      }));
    },
    async billing(db, caller, filter) {
      const scope = await scopeOf(context, caller, 'billing');
      const numbers = filter.policyNumbers
        ? inArray(policy.number, filter.policyNumbers.length ? filter.policyNumbers : [''])
        : undefined;
      const invoices = await db
        .select({ invoice, policyNumber: policy.number })
        .from(invoice)
        .innerJoin(policy, eq(policy.id, invoice.policyId))
        .where(and(numbers, scope))
        .orderBy(desc(invoice.invoiceDate), desc(invoice.id))
        .limit(5000);
      const payments = await db
        .select({ payment, policyNumber: policy.number, invoiceNumber: invoice.number })
        .from(payment)
        .innerJoin(policy, eq(policy.id, payment.policyId))
        .leftJoin(invoice, eq(invoice.id, payment.invoiceId))
        .where(and(numbers, scope))
        .orderBy(desc(payment.receivedOn), desc(payment.id))
        .limit(5000);
      return {
        invoices: invoices.map(({ invoice: i, policyNumber }) => ({
          policyNumber,
          number: i.number,
          invoiceDate: i.invoiceDate,
          dueDate: i.dueDate,
          amount: i.amount,
          status: i.status,
          description: i.description,
        })),
        payments: payments.map(({ payment: p, policyNumber, invoiceNumber }) => ({
          policyNumber,
          invoiceNumber,
          receivedOn: p.receivedOn,
          amount: p.amount,
          method: p.method,
          reference: p.reference,
        })),
      };
    },
  };
}

export const policyReporting = provideService(POLICY_REPORTING, policyReportingService);
