import { and, asc, desc, eq, gte, inArray, ne } from 'drizzle-orm';
import { ApiError, type JobDefinition, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_RATING, type LinesRating } from '@atrium/plugin-lines/rating-service';
import {
  Decimal,
  addDays,
  addMonths,
  cancellationReturn,
  cents,
  daysBetween,
  earnedAsOf,
  endorsementDelta,
  installments,
  type CancellationMethod,
} from './premium.js';
import { applyChanges, RatingRefused, rerate, valueAt, type RenewalRating } from './rerate.js';
import { shortRateFor } from './services.js';
import { recordTransactionFailure } from './transaction-failure.js';
import {
  billingSchedule,
  installment,
  policy,
  policyRevision,
  policyTerm,
  policyTransaction,
  type ShortRateRule,
} from './tables.js';

/**
 * Policy transactions (docs/policies.md, "Transactions"): a POST records the transaction as
 * `initiated` and queues a job; the job moves it to `in_progress`, applies it in one database
 * transaction (new revision, premium, installments, policy status) and ends `completed`, or
 * `failed` with the reason (nothing of the change is kept). Cancellation, reinstatement and renewal
 * bind on their own (auto_bind); a failed one can be dismissed with a reason.
 */
export const TRANSACTION_QUEUE = 'policies-transaction';
export const TRANSACTION_TYPES = ['endorsement', 'cancellation', 'reinstatement', 'renewal'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const AUTO_BIND: TransactionType[] = ['cancellation', 'reinstatement', 'renewal'];

export const CANCELLATION_STATUS: Record<CancellationMethod, string> = {
  pro_rata: 'Canceled - Pro Rata',
  short_rate: 'Canceled - Short Rate',
  flat: 'Canceled - Flat',
};

export interface TransactionInput {
  /** endorsement: the new annual premium (as re-rated) and the risk data changes (path → value). */
  annualPremium?: string;
  changes?: Record<string, unknown>;
  /** endorsement out of sequence: reviewed and committed. */
  confirmOos?: boolean;
  /** cancellation */
  method?: CancellationMethod;
  reason?: string;
}

/** A failure the user can act on: kept as the transaction's error. */
class TransactionRefused extends Error {}

/** An out-of-sequence endorsement waits for review: nothing is written until it is committed. */
class AwaitingReview extends Error {
  constructor(readonly review: Record<string, unknown>) {
    super('The out-of-sequence endorsement waits for review.');
  }
}

const differs = (a: unknown, b: unknown, path: string) =>
  JSON.stringify(valueAt(a, path)) !== JSON.stringify(valueAt(b, path));

/** Fields the out-of-sequence change sets that a later revision had already changed itself. */
export function oosConflicts(
  inForce: unknown,
  later: { number: number; revisionDate: string; risks: unknown }[],
  changes: Record<string, unknown>,
) {
  return later.flatMap((revision) =>
    Object.keys(changes)
      .filter((path) => differs(inForce, revision.risks, path))
      .map((path) => ({
        revisionNumber: revision.number,
        revisionDate: revision.revisionDate,
        field: path,
        laterValue: valueAt(revision.risks, path) ?? null,
        outOfSequenceValue: changes[path] ?? null,
        kept: 'later',
      })),
  );
}

export async function enqueueTransaction(
  context: ServerPluginContext,
  values: {
    policyId: number;
    type: TransactionType;
    effectiveDate: string;
    description: string;
    input: TransactionInput;
    username: string;
  },
): Promise<typeof policyTransaction.$inferSelect> {
  const [row] = await context.db
    .insert(policyTransaction)
    .values({
      policyId: values.policyId,
      type: values.type,
      effectiveDate: values.effectiveDate,
      description: values.description,
      input: values.input as Record<string, unknown>,
      autoBind: AUTO_BIND.includes(values.type),
      processAsync: true,
      status: 'initiated',
      username: values.username,
    })
    .returning();
  await context.jobs.send(TRANSACTION_QUEUE, { transactionId: row!.id });
  return row!;
}

/** Terms and committed revisions of a policy, oldest first. */
export async function policyHistory(tx: Queryable, policyId: number) {
  const terms = await tx
    .select()
    .from(policyTerm)
    .where(eq(policyTerm.policyId, policyId))
    .orderBy(asc(policyTerm.number));
  const revisions = await tx
    .select()
    .from(policyRevision)
    .where(and(eq(policyRevision.policyId, policyId), eq(policyRevision.revisionState, 'committed')))
    .orderBy(asc(policyRevision.number));
  return { terms, revisions };
}

/** The term a day falls in (or the last one). */
const termOn = <T extends { effectiveDate: string; expirationDate: string }>(terms: T[], day: string) =>
  terms.find((t) => t.effectiveDate <= day && day < t.expirationDate);

/** Figures of a term on a day: written, earned, unearned (premium.ts), the revision in force. */
export function termFigures(
  term: typeof policyTerm.$inferSelect,
  revisions: (typeof policyRevision.$inferSelect)[],
  asOf: string,
) {
  const own = revisions.filter((r) => r.termId === term.id);
  const cancel = [...own].reverse().find((r) => r.policyStatus.startsWith('Canceled'));
  const lastIsCancel = own.at(-1)?.policyStatus.startsWith('Canceled') ?? false;
  const premiumRevisions = own
    .filter((r) => !r.policyStatus.startsWith('Canceled'))
    .map((r) => ({ revisionDate: r.revisionDate, annualPremium: r.annualPremium }));
  const figures = earnedAsOf(term, premiumRevisions, asOf, lastIsCancel ? cancel?.revisionDate : null);
  return { ...figures, inForce: own.filter((r) => r.revisionDate <= asOf).at(-1) ?? own[0] };
}

function setPolicyStatus(revisions: { policyStatus: string }[]): string {
  const last = revisions.at(-1);
  if (last?.policyStatus.startsWith('Canceled')) return 'Canceled';
  return 'In Force';
}

/**
 * Bills what a transaction changed (docs/policies.md, "Billing"): the term's written premium (its
 * latest committed revision's) against what its installments bill. An increase or decrease is
 * spread over the open installments due on or after the transaction's date in proportion to their
 * amounts (the last takes what rounding left); when there are none (or a decrease exceeds them) it
 * is billed as an adjustment installment due that day — negative: a credit (return premium).
 */
async function rebill(tx: Queryable, row: typeof policyTransaction.$inferSelect, termId: number, on: string) {
  const [latest] = await tx
    .select({ writtenPremium: policyRevision.writtenPremium })
    .from(policyRevision)
    .where(and(eq(policyRevision.termId, termId), eq(policyRevision.revisionState, 'committed')))
    .orderBy(desc(policyRevision.number))
    .limit(1);
  const lines = await tx
    .select()
    .from(installment)
    .where(and(eq(installment.termId, termId), ne(installment.status, 'canceled')))
    .orderBy(asc(installment.number));
  if (!latest) return null;
  const billed = lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  const change = new Decimal(latest.writtenPremium).minus(billed);
  if (change.isZero()) return null;
  const open = lines.filter((l) => l.status === 'open' && l.dueDate >= on && new Decimal(l.amount).gt(0));
  const openTotal = open.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  if (open.length && openTotal.plus(change).gte(0)) {
    let left = change;
    for (const [i, line] of open.entries()) {
      const share = i === open.length - 1 ? left : new Decimal(cents(change.times(line.amount).div(openTotal)));
      left = left.minus(share);
      await tx
        .update(installment)
        .set({ amount: cents(share.plus(line.amount)) })
        .where(eq(installment.id, line.id));
    }
    return { billingChange: cents(change), spreadOver: open.length };
  }
  const [any] = await tx
    .select({ scheduleId: installment.scheduleId, number: installment.number })
    .from(installment)
    .where(eq(installment.termId, termId))
    .orderBy(desc(installment.number))
    .limit(1);
  await tx.insert(installment).values({
    policyId: row.policyId,
    termId,
    scheduleId: any?.scheduleId ?? 'annual',
    transactionId: row.id,
    number: (any?.number ?? 0) + 1,
    dueDate: on,
    amount: cents(change),
    fee: '0.00',
  });
  return { billingChange: cents(change), spreadOver: 0 };
}

/** Applies one transaction inside `tx`: the new revision, premium, installments and status. */
async function apply(
  tx: Queryable,
  row: typeof policyTransaction.$inferSelect,
  rating: LinesRating | null,
): Promise<Record<string, unknown>> {
  const [current] = await tx.select().from(policy).where(eq(policy.id, row.policyId));
  if (!current) throw new TransactionRefused('The policy does not exist.');
  const { terms, revisions } = await policyHistory(tx, row.policyId);
  const input = row.input as TransactionInput;
  const last = revisions.at(-1)!;
  const nextNumber =
    Math.max(
      0,
      ...(
        await tx
          .select({ n: policyRevision.number })
          .from(policyRevision)
          .where(eq(policyRevision.policyId, row.policyId))
      ).map((r) => r.n),
    ) + 1;
  const canceled = last.policyStatus.startsWith('Canceled');

  if (row.type === 'renewal') {
    const term = terms.at(-1)!;
    if (canceled) throw new TransactionRefused('A canceled policy cannot be renewed.');
    if (row.effectiveDate !== term.expirationDate) {
      throw new TransactionRefused(`A renewal starts on the expiring term's expiration date (${term.expirationDate}).`);
    }
    const termRevisions = revisions.filter((r) => r.termId === term.id);
    const expiring = termRevisions.at(-1)!;
    const days = daysBetween(term.effectiveDate, term.expirationDate);
    // A yearly term renews for a year (same day of month), any other for as many days.
    const nextExpiration = days >= 365 ? addMonths(term.expirationDate, 12) : addDays(term.expirationDate, days);
    // Re-rated on the version in force at the renewal date (lines' engine), else the premium carried.
    const rated: RenewalRating = input.annualPremium
      ? { rerated: false, reason: 'The annual premium was given with the renewal.' }
      : await rerate(rating, tx, {
          product: current.productSlug,
          risks: expiring.risks,
          ratingDate: term.expirationDate,
          termStart: term.expirationDate,
          termEnd: nextExpiration,
          transactionType: 'renewal',
        });
    const annual = rated.rerated
      ? cents(rated.annualPremium)
      : input.annualPremium
        ? cents(input.annualPremium)
        : expiring.annualPremium;
    const productVersionId = rated.rerated ? String(rated.productVersionId) : expiring.productVersionId;
    const worksheet = rated.rerated ? rated.worksheet : expiring.worksheet;
    const [newTerm] = await tx
      .insert(policyTerm)
      .values({
        policyId: row.policyId,
        number: term.number + 1,
        effectiveDate: term.expirationDate,
        expirationDate: nextExpiration,
        productVersionId,
        premium: annual,
      })
      .returning();
    const [revision] = await tx
      .insert(policyRevision)
      .values({
        policyId: row.policyId,
        termId: newTerm!.id,
        number: nextNumber,
        revisionDate: newTerm!.effectiveDate,
        policyStatus: 'Active',
        description: row.description || `Renewal term ${newTerm!.number}`,
        quoteNumber: expiring.quoteNumber,
        productVersionId,
        commissionRate: expiring.commissionRate,
        annualPremium: annual,
        writtenPremium: annual,
        writtenPremiumDelta: annual,
        risks: expiring.risks,
        worksheet,
        contacts: expiring.contacts,
        createdBy: row.username,
      })
      .returning();
    const [firstInstallment] = await tx
      .select()
      .from(installment)
      .where(eq(installment.termId, term.id))
      .orderBy(asc(installment.number))
      .limit(1);
    const scheduleId = firstInstallment?.scheduleId ?? 'annual';
    const [schedule] = await tx.select().from(billingSchedule).where(eq(billingSchedule.id, scheduleId));
    if (schedule) {
      await tx.insert(installment).values(
        installments(schedule, annual, newTerm!.effectiveDate, null).map((line) => ({
          policyId: row.policyId,
          termId: newTerm!.id,
          scheduleId,
          transactionId: row.id,
          number: line.number,
          dueDate: line.dueDate,
          amount: line.amount,
          fee: line.fee,
        })),
      );
    }
    await tx
      .update(policyTransaction)
      .set({ termId: newTerm!.id, revisionId: revision!.id })
      .where(eq(policyTransaction.id, row.id));
    return {
      writtenPremium: annual,
      termNumber: newTerm!.number,
      expiringPremium: expiring.annualPremium,
      rerated: rated.rerated,
      ...(rated.rerated
        ? { productVersionId: String(rated.productVersionId), productVersion: rated.versionLabel }
        : { carriedReason: rated.reason }),
    };
  }

  const term = termOn(terms, row.effectiveDate);
  if (!term) throw new TransactionRefused('The effective date is outside every term of the policy.');
  const termRevisions = revisions.filter((r) => r.termId === term.id);
  const inForce = termRevisions.filter((r) => r.revisionDate <= row.effectiveDate).at(-1) ?? termRevisions[0]!;
  const figures = termFigures(term, revisions, row.effectiveDate);
  const base = {
    policyId: row.policyId,
    termId: term.id,
    number: nextNumber,
    revisionDate: row.effectiveDate,
    quoteNumber: inForce.quoteNumber,
    productVersionId: inForce.productVersionId,
    commissionRate: inForce.commissionRate,
    risks: inForce.risks,
    worksheet: inForce.worksheet,
    contacts: inForce.contacts,
    createdBy: row.username,
  };
  let result: Record<string, unknown>;
  let revisionId: number;

  if (row.type === 'endorsement') {
    if (canceled) throw new TransactionRefused('A canceled policy cannot be endorsed; reinstate it first.');
    const later = termRevisions.filter((r) => r.revisionDate > row.effectiveDate);
    const changes = input.changes ?? {};
    const merged = applyChanges(inForce.risks, changes);
    if (merged.missing) throw new TransactionRefused(`The policy has no risk the change ${merged.missing} names.`);
    const risks = merged.risks;
    // Without a premium given, the changed risk data is re-rated on the term's version (lines).
    const rateTerm = (changed: unknown) =>
      rerate(rating, tx, {
        product: current.productSlug,
        risks: changed,
        ratingDate: term.effectiveDate,
        versionId: term.productVersionId,
        termStart: term.effectiveDate,
        termEnd: term.expirationDate,
        transactionType: 'endorsement',
      });
    const rated: RenewalRating | null = input.annualPremium ? null : await rateTerm(risks);
    if (rated && !rated.rerated)
      throw new TransactionRefused(`An endorsement needs the new annual premium. ${rated.reason}`);
    const annual = rated?.rerated ? cents(rated.annualPremium) : cents(input.annualPremium!);
    const worksheet = rated?.rerated ? rated.worksheet : inForce.worksheet;
    if (later.length && !input.confirmOos) {
      // Out of sequence: list what the later revisions changed on the same fields, for review.
      throw new AwaitingReview({
        laterRevisions: later.map((r) => ({
          revisionNumber: r.number,
          revisionDate: r.revisionDate,
          annualPremium: r.annualPremium,
        })),
        conflicts: oosConflicts(inForce.risks, later, changes),
      });
    }
    // The change runs to the end of the term: later revisions are re-issued carrying it (their
    // own changes win on a field both touched), their annual premium moved by the same amount.
    const delta = endorsementDelta(term, inForce.annualPremium, annual, row.effectiveDate);
    const shift = new Decimal(annual).minus(inForce.annualPremium);
    const [revision] = await tx
      .insert(policyRevision)
      .values({
        ...base,
        risks,
        worksheet,
        policyStatus: 'Active',
        description: row.description || 'Endorsement',
        annualPremium: annual,
        writtenPremium: cents(new Decimal(last.writtenPremium).plus(delta)),
        writtenPremiumDelta: delta,
      })
      .returning();
    revisionId = revision!.id;
    let number = nextNumber;
    for (const old of later) {
      number += 1;
      const own = Object.fromEntries(
        Object.keys(changes)
          .filter((path) => !differs(inForce.risks, old.risks, path))
          .map((path) => [path, changes[path]]),
      );
      await tx.update(policyRevision).set({ revisionState: 'superseded' }).where(eq(policyRevision.id, old.id));
      const reissuedRisks = applyChanges(old.risks, own).risks;
      // A rated endorsement re-rates the re-issued revisions too; else their premium moves by the same amount.
      const reissued = rated?.rerated ? await rateTerm(reissuedRisks) : null;
      await tx.insert(policyRevision).values({
        policyId: old.policyId,
        termId: old.termId,
        number,
        revisionDate: old.revisionDate,
        policyStatus: old.policyStatus,
        description: `${old.description} (re-issued after out-of-sequence endorsement)`,
        quoteNumber: old.quoteNumber,
        productVersionId: old.productVersionId,
        commissionRate: old.commissionRate,
        annualPremium: reissued?.rerated ? cents(reissued.annualPremium) : cents(shift.plus(old.annualPremium)),
        writtenPremium: cents(new Decimal(last.writtenPremium).plus(delta)),
        writtenPremiumDelta: '0.00',
        risks: reissuedRisks,
        worksheet: reissued?.rerated ? reissued.worksheet : old.worksheet,
        contacts: old.contacts,
        createdBy: row.username,
      });
    }
    result = {
      writtenPremiumDelta: delta,
      annualPremium: annual,
      previousAnnualPremium: inForce.annualPremium,
      rerated: Boolean(rated?.rerated),
      ...(rated?.rerated ? { productVersion: rated.versionLabel } : {}),
      outOfSequence: later.map((r) => ({ revisionNumber: r.number, revisionDate: r.revisionDate })),
    };
    if (later.length) {
      await tx.update(policyTransaction).set({ oosStatus: 'resolved' }).where(eq(policyTransaction.id, row.id));
    }
    if (later.length && rated?.rerated) {
      // Re-rated re-issues moved by their own amounts, not the endorsement's: the term's written
      // premium is summed again from its revisions (premium.ts) onto the latest one.
      const after = await policyHistory(tx, row.policyId);
      const written = termFigures(term, after.revisions, term.effectiveDate).written;
      const latest = after.revisions.filter((r) => r.termId === term.id).at(-1)!;
      await tx.update(policyRevision).set({ writtenPremium: written }).where(eq(policyRevision.id, latest.id));
    }
  } else if (row.type === 'cancellation') {
    if (canceled) throw new TransactionRefused('The policy is already canceled.');
    const method = input.method ?? 'pro_rata';
    const written = figures.written;
    const shortRate = (current.shortRate as ShortRateRule | null) ?? shortRateFor(current.productSlug);
    const computed = cancellationReturn({
      annualPremium: written,
      effectiveDate: term.effectiveDate,
      expirationDate: term.expirationDate,
      cancellationDate: row.effectiveDate,
      method,
      shortRate,
    });
    const [revision] = await tx
      .insert(policyRevision)
      .values({
        ...base,
        policyStatus: CANCELLATION_STATUS[method],
        description: row.description || `Cancellation (${input.reason ?? 'insured request'})`,
        annualPremium: inForce.annualPremium,
        writtenPremium: cents(new Decimal(last.writtenPremium).minus(computed.returnPremium)),
        writtenPremiumDelta: cents(new Decimal(0).minus(computed.returnPremium)),
      })
      .returning();
    revisionId = revision!.id;
    await tx
      .update(installment)
      .set({ status: 'canceled' })
      .where(
        and(
          eq(installment.termId, term.id),
          gte(installment.dueDate, row.effectiveDate),
          eq(installment.status, 'open'),
        ),
      );
    await tx
      .update(policy)
      .set({ cancellationPending: false, cancellationPendingDate: null, cancellationPendingReason: null })
      .where(eq(policy.id, row.policyId));
    result = { ...computed, method, reason: input.reason ?? null, writtenPremiumDelta: `-${computed.returnPremium}` };
  } else if (row.type === 'reinstatement') {
    if (!canceled) throw new TransactionRefused('Only a canceled policy can be reinstated.');
    const returned = new Decimal(0).minus(last.writtenPremiumDelta);
    const previous = termRevisions.filter((r) => !r.policyStatus.startsWith('Canceled')).at(-1)!;
    const [revision] = await tx
      .insert(policyRevision)
      .values({
        ...base,
        revisionDate: last.revisionDate,
        risks: previous.risks,
        worksheet: previous.worksheet,
        policyStatus: 'Active',
        description: row.description || 'Reinstatement',
        annualPremium: previous.annualPremium,
        writtenPremium: cents(new Decimal(last.writtenPremium).plus(returned)),
        writtenPremiumDelta: cents(returned),
      })
      .returning();
    revisionId = revision!.id;
    // The installments the cancellation canceled are due again; its return-premium credit goes.
    const [cancellation] = await tx
      .select({ id: policyTransaction.id })
      .from(policyTransaction)
      .where(and(eq(policyTransaction.revisionId, last.id), eq(policyTransaction.type, 'cancellation')));
    await tx
      .update(installment)
      .set({ status: 'open' })
      .where(and(eq(installment.termId, term.id), eq(installment.status, 'canceled')));
    if (cancellation) {
      await tx
        .update(installment)
        .set({ status: 'canceled' })
        .where(and(eq(installment.termId, term.id), eq(installment.transactionId, cancellation.id)));
    }
    result = { writtenPremiumDelta: cents(returned), reinstatedFrom: last.revisionDate };
  } else {
    throw new TransactionRefused(`Unknown transaction type ${row.type}.`);
  }
  await tx.update(policyTransaction).set({ termId: term.id, revisionId }).where(eq(policyTransaction.id, row.id));
  const billing = await rebill(tx, row, term.id, row.effectiveDate);
  return billing ? { ...result, ...billing } : result;
}

/** Applies a claimed transaction and marks it completed, in `tx`. */
async function complete(
  tx: Queryable,
  row: typeof policyTransaction.$inferSelect,
  rating: LinesRating | null,
): Promise<void> {
  const result = await apply(tx, row, rating);
  const { revisions } = await policyHistory(tx, row.policyId);
  await tx
    .update(policy)
    .set({ status: setPolicyStatus(revisions) })
    .where(eq(policy.id, row.policyId));
  await tx
    .update(policyTransaction)
    .set({ status: 'completed', result, updatedAt: new Date() })
    .where(eq(policyTransaction.id, row.id));
}

/** Records and applies a transaction at once, in `tx` (demo data; the API always queues). */
export async function applyNow(
  tx: Queryable,
  values: {
    policyId: number;
    type: TransactionType;
    effectiveDate: string;
    description?: string;
    input: TransactionInput;
    username: string;
  },
  rating: LinesRating | null = null,
): Promise<void> {
  const [row] = await tx
    .insert(policyTransaction)
    .values({
      policyId: values.policyId,
      type: values.type,
      effectiveDate: values.effectiveDate,
      description: values.description ?? '',
      input: values.input as Record<string, unknown>,
      autoBind: AUTO_BIND.includes(values.type),
      status: 'in_progress',
      username: values.username,
    })
    .returning();
  await complete(tx, row!, rating);
}

/** Runs one queued transaction (the job's handler; also called directly when no worker runs). */
export async function runTransaction(
  context: Pick<ServerPluginContext, 'db' | 'optionalService'>,
  transactionId: number,
): Promise<void> {
  const db = context.db;
  const rating = context.optionalService(LINES_RATING);
  const claimed = await db
    .update(policyTransaction)
    .set({ status: 'in_progress', updatedAt: new Date() })
    .where(and(eq(policyTransaction.id, transactionId), eq(policyTransaction.status, 'initiated')))
    .returning();
  const row = claimed[0];
  if (!row) return;
  try {
    await db.transaction(async (tx) => {
      // One transaction at a time per policy: later ones wait for this lock.
      await tx.select({ id: policy.id }).from(policy).where(eq(policy.id, row.policyId)).for('update');
      await complete(tx, row, rating);
    });
  } catch (error) {
    if (error instanceof AwaitingReview) {
      await db
        .update(policyTransaction)
        .set({ status: 'in_progress', oosStatus: 'conflicts', result: error.review, updatedAt: new Date() })
        .where(eq(policyTransaction.id, row.id));
      return;
    }
    const message =
      error instanceof TransactionRefused || error instanceof RatingRefused || error instanceof ApiError
        ? error.message
        : 'The transaction could not be processed.';
    await recordTransactionFailure(context, row, message);
    if (!(error instanceof TransactionRefused || error instanceof RatingRefused)) throw error;
  }
}

export const transactionJob: JobDefinition<{ transactionId: number }> = {
  name: TRANSACTION_QUEUE,
  pollingIntervalSeconds: 1,
  retryLimit: 0,
  async handler(data, context) {
    await runTransaction(context, data.transactionId);
  },
};

/** Transactions still waiting or running for a policy (a new one waits for them). */
export async function openTransactions(tx: Queryable, policyId: number) {
  return tx
    .select()
    .from(policyTransaction)
    .where(
      and(eq(policyTransaction.policyId, policyId), inArray(policyTransaction.status, ['initiated', 'in_progress'])),
    )
    .orderBy(desc(policyTransaction.id));
}
