import type { Queryable } from '@atrium/sdk/server';
import type { PolicyLookup, PolicySummary } from '@atrium/plugin-policies/services';
import { claimCoverages, policyColumnsAt } from '../integrations/policy-source.js';
import type { claim, ClaimPolicyCoverage } from '../core/tables.js';

/** The policies module's product of each claims demo line. */
const LINE_PRODUCTS: Record<string, string> = { Homeowners: 'homeowners', 'Personal Auto': 'personal_auto' };

/** A demo claim's policy: the claim columns, the insured and the coverages in force on the loss date. */
export interface DemoClaimPolicy {
  columns: Partial<typeof claim.$inferInsert>;
  insured: { contactId: string | null; name: string };
  coverages: ClaimPolicyCoverage[];
}

/**
 * The demo policy claim `index` of a line is filed on: the policies demo's policies of that line,
 * taken in turn from `index` on (so the claims spread over the book and its three producers), the
 * first one in force on the loss date. The policies seed ran first (claims lists POLICY_LOOKUP in
 * `optionalDeps`) in this transaction, and its demo always has a policy of each line in force over
 * the claims' loss dates (90 to 31 days before the seed day).
 */
export async function demoClaimPolicies(
  tx: Queryable,
  lookup: PolicyLookup,
  /** The policies demo's book, read once per seed (`searchPolicies` with no text). */
  book: PolicySummary[],
  line: string,
  index: number,
  lossDay: string,
): Promise<DemoClaimPolicy> {
  const product = LINE_PRODUCTS[line];
  const candidates = book
    .filter((p) => p.productSlug === product)
    .sort((a, b) => a.policyNumber.localeCompare(b.policyNumber));
  for (let step = 0; step < candidates.length; step++) {
    const candidate = candidates[(index + step) % candidates.length]!;
    const atDate = await lookup.policyAtDate(tx, candidate.policyId, lossDay);
    if (!atDate || atDate.coverages.length === 0) continue;
    return {
      columns: await policyColumnsAt(lookup, tx, candidate.policyId, lossDay),
      insured: atDate.namedInsured,
      coverages: claimCoverages(atDate),
    };
  }
  throw new Error(`The policies demo has no ${line} policy in force on ${lossDay} for the claims demo.`);
}
