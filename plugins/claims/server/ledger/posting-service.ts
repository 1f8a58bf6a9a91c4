import { eq, sql } from 'drizzle-orm';
import { ApiError, type Principal, type Queryable } from '@atrium/sdk/server';
import {
  applicableLimit,
  decideAuthority,
  describeExceeded,
  type AuthorityDecision,
  type AuthorityKind,
} from './authority.js';
import { totalIncurred, type LedgerBalances } from './balances.js';
import type { EntryDraft, ReserveCategory, TransactionType } from './ledger-entry.js';
import {
  authorityLimitsOf,
  claimBalances,
  entriesOfTransaction,
  insertEntries,
  lockExposure,
  voidOf,
  writeAudit,
  type LockedExposure,
  type TransactionRow,
} from './ledger-store.js';
import { formatMoney, parseMoney, type Cents } from './money.js';
import { LedgerRuleError, planPayment, planRecovery, planReserve, planReversal } from './posting-rules.js';
import { ledgerTransaction } from './tables.js';

/**
 * Requests, approvals, rejections and voids of ledger transactions, each inside the caller's
 * database transaction and under the claim's row lock. Routes and the demo seed both post through
 * here, so the rules in posting-rules.ts and the authority limits hold for every entry written.
 */
export interface Actor {
  username: string;
  effectiveRole: string | null;
  /** The signed-in caller, asked about records by the access evaluator; null for the seed. */
  principal: Principal | null;
}

export type TransactionRequest =
  | {
      type: 'reserve';
      exposureId: number;
      category: ReserveCategory;
      newAmount?: Cents;
      change?: Cents;
      details: Record<string, unknown>;
    }
  | {
      type: 'payment';
      exposureId: number;
      category: ReserveCategory;
      amount: Cents;
      finalPayment: boolean;
      details: Record<string, unknown>;
    }
  | {
      type: 'recovery';
      exposureId: number;
      category: ReserveCategory;
      amount: Cents;
      details: Record<string, unknown>;
    };

const RESOURCE_OF: Record<TransactionType, string> = {
  reserve: 'claims:reserve',
  payment: 'claims:payment',
  recovery: 'claims:recovery',
  payment_void: 'claims:payment',
  recovery_void: 'claims:recovery',
};

/** A broken ledger rule as the API answers it: 400 at the attribute on a request, 409 on approval. */
export function ruleError(error: LedgerRuleError, status = 400): ApiError {
  return new ApiError(status, error.message, {
    code: error.code,
    source: status === 400 ? { pointer: error.field ? `/data/attributes/${error.field}` : '/data' } : undefined,
  });
}

function plan(request: TransactionRequest, locked: LockedExposure, balances: LedgerBalances): EntryDraft[] {
  const target = { claimId: locked.claimId, exposureId: locked.exposureId, category: request.category };
  const current = balances.category(locked.exposureId, request.category);
  switch (request.type) {
    case 'reserve':
      return planReserve(
        request.newAmount !== undefined
          ? { ...target, newAmount: request.newAmount }
          : { ...target, change: request.change! },
        current,
      );
    case 'payment':
      return planPayment({ ...target, amount: request.amount, finalPayment: request.finalPayment }, current);
    case 'recovery':
      return planRecovery({ ...target, amount: request.amount });
  }
}

/** What authority weighs: see authority.ts for the meaning of each total. */
function authorityQuestion(
  kind: AuthorityKind,
  drafts: EntryDraft[],
  locked: LockedExposure,
  balances: LedgerBalances,
) {
  const exposure = balances.exposure(locked.exposureId);
  const claim = balances.claim(locked.claimId);
  if (kind === 'payment') {
    const amount = drafts.filter((d) => d.kind === 'payment').reduce((sum, d) => sum + d.amount, 0n);
    return { kind, amount, coverageTotalAfter: exposure.paid + amount, claimTotalAfter: claim.paid + amount };
  }
  const delta = drafts.reduce((sum, d) => sum + d.amount, 0n);
  return {
    kind,
    amount: delta,
    coverageTotalAfter: totalIncurred(exposure) + delta,
    claimTotalAfter: totalIncurred(claim) + delta,
  };
}

/**
 * The record the access policy is asked about (conditions like `record.amount gt 5000.00` read it):
 * the amount the request names — a payment's or recovery's amount, a reserve's new amount (or its
 * change when only a change is given). Routes evaluate it before the database transaction opens,
 * because the evaluator may read the database and the embedded database has one connection.
 */
export function accessRecord(
  type: TransactionType,
  amount: string,
  target: { claimId: number; exposureId: number; category: string },
) {
  return {
    amount,
    transaction_type: type,
    reserve_category: target.category,
    claim_id: target.claimId,
    exposure_id: target.exposureId,
  };
}

export const RESOURCE_OF_TYPE = RESOURCE_OF;

interface AuthorityOutcome {
  within: boolean;
  decision: AuthorityDecision;
  policyAllowed: boolean;
}

async function weighAuthority(
  tx: Queryable,
  actor: Actor,
  policyAllowed: boolean,
  type: 'reserve' | 'payment',
  drafts: EntryDraft[],
  locked: LockedExposure,
  balances: LedgerBalances,
): Promise<AuthorityOutcome> {
  const question = authorityQuestion(type, drafts, locked, balances);
  const limit = actor.principal
    ? applicableLimit(await authorityLimitsOf(tx, type), type, actor.username, actor.effectiveRole)
    : null;
  const decision = decideAuthority(limit, question);
  // Lowering a reserve needs no authority, whatever the policy says about the amount.
  const allowed = question.amount <= 0n || policyAllowed;
  return { within: decision.withinAuthority && allowed, decision, policyAllowed: allowed };
}

const nextNumber = sql<string>`'TXN-' || lpad(nextval('claims.ledger_transaction_number_seq')::text, 8, '0')`;

function authorityRecord(outcome: AuthorityOutcome, actor: Actor) {
  return {
    requested_by: actor.username,
    limit_id: outcome.decision.limitId,
    exceeded: outcome.decision.exceeded,
    access_policy_allows: outcome.policyAllowed,
    reason: outcome.within ? null : pendingReason(outcome),
  };
}

function pendingReason(outcome: AuthorityOutcome): string {
  const parts = [];
  if (outcome.decision.exceeded.length > 0) parts.push(describeExceeded(outcome.decision));
  if (!outcome.policyAllowed) parts.push('over the amount the access policy allows');
  return `Waiting for approval: ${parts.join('; ')}.`;
}

/**
 * Posts a reserve change, payment or recovery, or stores it pending approval when it is beyond the
 * caller's authority (an authority limit, or the access policy refusing the record). Recoveries
 * bring money in and need no authority.
 */
export async function requestTransaction(
  tx: Queryable,
  actor: Actor,
  request: TransactionRequest,
  /** What the access policy said about accessRecord(…) with action create; true for the seed. */
  policyAllowed: boolean,
  /** The historical claims import posts history on its original date (docs/claims-import.md); default now. */
  options: { postedAt?: Date } = {},
): Promise<TransactionRow> {
  const locked = await lockExposure(tx, request.exposureId);
  const balances = await claimBalances(tx, locked.claimId);
  let drafts: EntryDraft[];
  try {
    drafts = plan(request, locked, balances);
  } catch (error) {
    if (error instanceof LedgerRuleError) throw ruleError(error);
    throw error;
  }
  const outcome =
    request.type === 'recovery'
      ? null
      : await weighAuthority(tx, actor, policyAllowed, request.type, drafts, locked, balances);
  const posted = outcome === null || outcome.within;
  const current = balances.category(locked.exposureId, request.category);
  const amount =
    request.type === 'reserve' ? drafts.reduce((sum, d) => sum + d.amount, 0n) : (request as { amount: Cents }).amount;
  const details =
    request.type === 'reserve'
      ? { ...request.details, new_amount: formatMoney(current.reserve + amount) }
      : request.type === 'payment'
        ? { ...request.details, final_payment: request.finalPayment }
        : request.details;
  const now = options.postedAt ?? new Date();
  const [row] = await tx
    .insert(ledgerTransaction)
    .values({
      number: nextNumber,
      claimId: locked.claimId,
      exposureId: locked.exposureId,
      type: request.type,
      reserveCategory: request.category,
      amount: formatMoney(amount),
      status: posted ? 'posted' : 'pending_approval',
      postedAt: posted ? now : null,
      requestedBy: actor.username,
      requestedAt: now,
      details,
      authority: outcome ? authorityRecord(outcome, actor) : null,
    })
    .returning();
  if (posted) await insertEntries(tx, row!.id, drafts, options.postedAt);
  await writeAudit(tx, {
    username: actor.username,
    action: posted ? `${request.type}.post` : `${request.type}.request_approval`,
    transaction: row!,
    reason: posted ? null : pendingReason(outcome!),
  });
  return row!;
}

async function lockPending(tx: Queryable, id: number): Promise<TransactionRow> {
  const [row] = await tx.select().from(ledgerTransaction).where(eq(ledgerTransaction.id, id)).for('update');
  if (!row) throw new ApiError(404, `Transaction ${id} not found.`);
  if (row.status !== 'pending_approval') {
    throw new ApiError(
      409,
      `Transaction ${row.number} is ${row.status.replace('_', ' ')}; only a pending transaction can be approved or rejected.`,
      {
        code: 'not_pending',
      },
    );
  }
  return row;
}

/** Posts a pending transaction for an approver whose authority covers it (at today's balances). */
export async function approveTransaction(
  tx: Queryable,
  approver: Actor,
  id: number,
  comment: string | null,
  /** What the access policy said about accessRecord(…) with action approve. */
  policyAllowed: boolean,
): Promise<TransactionRow> {
  const pending = await lockPending(tx, id);
  if (pending.requestedBy.toLowerCase() === approver.username.toLowerCase()) {
    throw new ApiError(403, 'You cannot approve your own transaction.', { code: 'self_approval' });
  }
  const type = pending.type as 'reserve' | 'payment';
  const locked = await lockExposure(tx, pending.exposureId);
  const balances = await claimBalances(tx, locked.claimId);
  const category = pending.reserveCategory as ReserveCategory;
  const request: TransactionRequest =
    type === 'reserve'
      ? {
          type,
          exposureId: pending.exposureId,
          category,
          newAmount: parseMoney(String(pending.details.new_amount)),
          details: {},
        }
      : {
          type,
          exposureId: pending.exposureId,
          category,
          amount: parseMoney(pending.amount),
          finalPayment: pending.details.final_payment === true,
          details: {},
        };
  let drafts: EntryDraft[];
  try {
    drafts = plan(request, locked, balances);
  } catch (error) {
    if (error instanceof LedgerRuleError) throw ruleError(error, 409);
    throw error;
  }
  const outcome = await weighAuthority(tx, approver, policyAllowed, type, drafts, locked, balances);
  if (!outcome.within) {
    throw new ApiError(
      403,
      `Your authority does not cover transaction ${pending.number}: ${pendingReason(outcome).replace('Waiting for approval: ', '')}`,
      {
        code: 'approval_beyond_authority',
      },
    );
  }
  const amount = type === 'reserve' ? drafts.reduce((sum, d) => sum + d.amount, 0n) : parseMoney(pending.amount);
  const now = new Date();
  const [row] = await tx
    .update(ledgerTransaction)
    .set({
      status: 'posted',
      postedAt: now,
      amount: formatMoney(amount),
      decidedBy: approver.username,
      decidedAt: now,
      decisionReason: comment,
    })
    .where(eq(ledgerTransaction.id, id))
    .returning();
  await insertEntries(tx, id, drafts);
  await writeAudit(tx, {
    username: approver.username,
    action: `${type}.approve`,
    transaction: row!,
    fromStatus: 'pending_approval',
    reason: comment,
  });
  return row!;
}

export async function rejectTransaction(
  tx: Queryable,
  approver: Actor,
  id: number,
  reason: string,
): Promise<TransactionRow> {
  const pending = await lockPending(tx, id);
  const now = new Date();
  const [row] = await tx
    .update(ledgerTransaction)
    .set({ status: 'rejected', decidedBy: approver.username, decidedAt: now, decisionReason: reason })
    .where(eq(ledgerTransaction.id, id))
    .returning();
  await writeAudit(tx, {
    username: approver.username,
    action: `${pending.type}.reject`,
    transaction: row!,
    fromStatus: 'pending_approval',
    reason,
  });
  return row!;
}

/** Voids a posted payment or recovery with a reversing transaction. */
export async function voidTransaction(
  tx: Queryable,
  actor: Actor,
  original: TransactionRow,
  reason: string,
): Promise<TransactionRow> {
  const what = original.type as 'payment' | 'recovery';
  const locked = await lockExposure(tx, original.exposureId);
  const entries = original.status === 'posted' ? await entriesOfTransaction(tx, original.id) : [];
  let drafts: EntryDraft[];
  try {
    drafts = planReversal(entries, (await voidOf(tx, original.id)) !== undefined, what);
  } catch (error) {
    if (error instanceof LedgerRuleError) throw ruleError(error, 409);
    throw error;
  }
  const now = new Date();
  const [row] = await tx
    .insert(ledgerTransaction)
    .values({
      number: nextNumber,
      claimId: locked.claimId,
      exposureId: locked.exposureId,
      type: `${what}_void`,
      reserveCategory: original.reserveCategory,
      amount: formatMoney(-parseMoney(original.amount)),
      status: 'posted',
      postedAt: now,
      requestedBy: actor.username,
      requestedAt: now,
      reversesTransactionId: original.id,
      details: { void_reason: reason },
    })
    .returning();
  await insertEntries(tx, row!.id, drafts);
  await writeAudit(tx, { username: actor.username, action: `${what}.void`, transaction: row!, reason });
  return row!;
}
