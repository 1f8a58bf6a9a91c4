import { and, asc, eq } from 'drizzle-orm';
import { ApiError, type Queryable } from '@atrium/sdk/server';
import { auditLog, claim, exposure } from '../core/tables.js';
import type { AuthorityKind, AuthorityLimit } from './authority.js';
import { LedgerBalances } from './balances.js';
import type { EntryDraft, EntryKind, LedgerEntry, ReserveCategory } from './ledger-entry.js';
import { formatMoney, parseMoney } from './money.js';
import { authorityLimit, ledgerEntry, ledgerTransaction } from './tables.js';

/** Database access shared by the posting service, the routes and the seed. */
export type TransactionRow = typeof ledgerTransaction.$inferSelect;
export type AuthorityLimitRow = typeof authorityLimit.$inferSelect;

export interface LockedExposure {
  exposureId: number;
  exposureNumber: number;
  claimId: number;
  claimNumber: string;
}

/** `Exposure {id} not found.` pointing at the relationship that named it. */
export const exposureNotFound = (id: number | string) =>
  new ApiError(404, `Exposure ${id} not found.`, { source: { pointer: '/data/relationships/exposure/data/id' } });

/**
 * Finds the exposure and locks its claim row (SELECT … FOR UPDATE). Every posting on a claim takes
 * this lock first, so two postings on one claim run one after the other and each sees the other's
 * entries: reserves cannot be overdrawn and per-claim authority totals cannot be raced past.
 */
export async function lockExposure(tx: Queryable, exposureId: number): Promise<LockedExposure> {
  const [found] = await tx
    .select({ claimId: exposure.claimId, number: exposure.number })
    .from(exposure)
    .where(eq(exposure.id, exposureId));
  if (!found) throw exposureNotFound(exposureId);
  const [locked] = await tx
    .select({ id: claim.id, number: claim.number })
    .from(claim)
    .where(eq(claim.id, found.claimId))
    .for('update');
  if (!locked) throw exposureNotFound(exposureId);
  return { exposureId, exposureNumber: found.number, claimId: locked.id, claimNumber: locked.number };
}

export function toLedgerEntry(row: typeof ledgerEntry.$inferSelect): LedgerEntry {
  return {
    id: row.id,
    transactionId: row.transactionId,
    claimId: row.claimId,
    exposureId: row.exposureId,
    category: row.reserveCategory as ReserveCategory,
    kind: row.kind as EntryKind,
    amount: parseMoney(row.amount),
    reversesEntryId: row.reversesEntryId,
  };
}

/** The claim's balances, replayed from its posted entries in posting order. */
export async function claimBalances(tx: Queryable, claimId: number): Promise<LedgerBalances> {
  const rows = await tx.select().from(ledgerEntry).where(eq(ledgerEntry.claimId, claimId)).orderBy(asc(ledgerEntry.id));
  return LedgerBalances.replay(rows.map(toLedgerEntry));
}

export async function entriesOfTransaction(tx: Queryable, transactionId: number): Promise<LedgerEntry[]> {
  const rows = await tx
    .select()
    .from(ledgerEntry)
    .where(eq(ledgerEntry.transactionId, transactionId))
    .orderBy(asc(ledgerEntry.id));
  return rows.map(toLedgerEntry);
}

export async function insertEntries(
  tx: Queryable,
  transactionId: number,
  drafts: EntryDraft[],
  /** Imported history keeps its original date; otherwise the database's now(). */
  postedAt?: Date,
): Promise<void> {
  if (drafts.length === 0) return;
  await tx.insert(ledgerEntry).values(
    drafts.map((d) => ({
      transactionId,
      claimId: d.claimId,
      exposureId: d.exposureId,
      reserveCategory: d.category,
      kind: d.kind,
      amount: formatMoney(d.amount),
      reversesEntryId: d.reversesEntryId,
      ...(postedAt ? { postedAt } : {}),
    })),
  );
}

export function toAuthorityLimit(row: AuthorityLimitRow): AuthorityLimit {
  const cap = (value: string | null) => (value === null ? null : parseMoney(value));
  return {
    id: row.id,
    subjectType: row.subjectType as 'user' | 'role',
    subject: row.subject,
    kind: row.kind as AuthorityKind,
    perTransaction: cap(row.perTransaction),
    perCoverage: cap(row.perCoverage),
    perClaim: cap(row.perClaim),
  };
}

export async function authorityLimitsOf(tx: Queryable, kind: AuthorityKind): Promise<AuthorityLimit[]> {
  const rows = await tx.select().from(authorityLimit).where(eq(authorityLimit.kind, kind));
  return rows.map(toAuthorityLimit);
}

export async function writeAudit(
  tx: Queryable,
  entry: {
    username: string;
    action: string;
    transaction: TransactionRow;
    fromStatus?: string | null;
    reason?: string | null;
    before?: unknown;
  },
): Promise<void> {
  await tx.insert(auditLog).values({
    username: entry.username,
    action: entry.action,
    entityType: 'transaction',
    entityId: String(entry.transaction.id),
    claimId: entry.transaction.claimId,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.transaction.status,
    reason: entry.reason ?? null,
    before: entry.before ?? null,
    after: {
      number: entry.transaction.number,
      type: entry.transaction.type,
      amount: entry.transaction.amount,
      reserve_category: entry.transaction.reserveCategory,
      exposure_id: entry.transaction.exposureId,
      status: entry.transaction.status,
      authority: entry.transaction.authority,
    },
  });
}

/** The void that reverses a transaction, if any. */
export async function voidOf(tx: Queryable, transactionId: number): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .select()
    .from(ledgerTransaction)
    .where(and(eq(ledgerTransaction.reversesTransactionId, transactionId)));
  return row;
}
