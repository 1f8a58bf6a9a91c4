import { formatMoney, type Cents } from './money.js';

/**
 * Authority limits say how much money a user may commit on their own. A limit row belongs to a
 * user (by user name) or a role, for reserves or for payments, with up to three caps (null: no cap):
 *
 * - per_transaction: the amount of one transaction (a payment's amount; a reserve's increase)
 * - per_coverage:    the exposure's total after the transaction (payments: the exposure's paid;
 *                    reserves: the exposure's total incurred, paid + open reserve)
 * - per_claim:       the same total over the whole claim
 *
 * The user's own row wins over their effective role's row; without either, the table sets no limit
 * (the access policy still decides who may post at all). Lowering a reserve never needs authority.
 */
export const AUTHORITY_KINDS = ['reserve', 'payment'] as const;
export type AuthorityKind = (typeof AUTHORITY_KINDS)[number];

export interface AuthorityLimit {
  id: number;
  subjectType: 'user' | 'role';
  subject: string;
  kind: AuthorityKind;
  perTransaction: Cents | null;
  perCoverage: Cents | null;
  perClaim: Cents | null;
}

export interface AuthorityQuestion {
  kind: AuthorityKind;
  /** The transaction's amount as authority sees it (payment amount, reserve increase; ≤ 0 needs none). */
  amount: Cents;
  /** The exposure's total after the transaction (see above). */
  coverageTotalAfter: Cents;
  /** The claim's total after the transaction. */
  claimTotalAfter: Cents;
}

export type Dimension = 'per_transaction' | 'per_coverage' | 'per_claim';

export interface AuthorityDecision {
  withinAuthority: boolean;
  /** The limit row applied, null when none applies. */
  limitId: number | null;
  exceeded: { dimension: Dimension; limit: string; value: string }[];
}

/** The limit that applies to a caller: their own row first, then their effective role's. */
export function applicableLimit(
  limits: AuthorityLimit[],
  kind: AuthorityKind,
  username: string,
  effectiveRole: string | null,
): AuthorityLimit | null {
  const ofKind = limits.filter((l) => l.kind === kind);
  const lower = username.toLowerCase();
  return (
    ofKind.find((l) => l.subjectType === 'user' && l.subject.toLowerCase() === lower) ??
    (effectiveRole ? ofKind.find((l) => l.subjectType === 'role' && l.subject === effectiveRole) : undefined) ??
    null
  );
}

export function decideAuthority(limit: AuthorityLimit | null, question: AuthorityQuestion): AuthorityDecision {
  if (!limit || question.amount <= 0n) return { withinAuthority: true, limitId: limit?.id ?? null, exceeded: [] };
  const checks: [Dimension, Cents | null, Cents][] = [
    ['per_transaction', limit.perTransaction, question.amount],
    ['per_coverage', limit.perCoverage, question.coverageTotalAfter],
    ['per_claim', limit.perClaim, question.claimTotalAfter],
  ];
  const exceeded = checks
    .filter(([, cap, value]) => cap !== null && value > cap)
    .map(([dimension, cap, value]) => ({ dimension, limit: formatMoney(cap!), value: formatMoney(value) }));
  return { withinAuthority: exceeded.length === 0, limitId: limit.id, exceeded };
}

const LABEL: Record<Dimension, string> = {
  per_transaction: 'per transaction',
  per_coverage: 'per coverage',
  per_claim: 'per claim',
};

/** "over the limit of 5000.00 per transaction (6000.00)" for messages and the audit log. */
export function describeExceeded(decision: AuthorityDecision): string {
  return decision.exceeded.map((e) => `${e.value} over the limit of ${e.limit} ${LABEL[e.dimension]}`).join('; ');
}
