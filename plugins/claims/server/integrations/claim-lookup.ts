import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { containsPattern, provideService, type ServerPluginContext } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import { CLAIM_LOOKUP, type ClaimLookup } from '../../shared/claim-lookup.js';
import { claimAccessFilter } from '../core/claim-access.js';
import { claim, location, party } from '../core/tables.js';

/** A location on one line, as a letter prints it: `12 Harbor Lane, Portland, ME 04101`; null when empty. */
function addressLine(l: { line1: string; line2: string; city: string; state: string; zip: string } | null) {
  if (!l) return null;
  const place = [l.city, [l.state, l.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const line = [l.line1, l.line2, place].filter(Boolean).join(', ');
  return line || null;
}

const day = (value: Date | null) => (value ? value.toISOString().slice(0, 10) : null);

/** The claim's claimant party: the first with role claimant, else the primary insured, else the first party. */
const claimantOrder = sql`case when ${party.role} = 'claimant' then 0 when ${party.id} = ${claim.primaryInsuredPartyId} then 1 else 2 end`;

/**
 * CLAIM_LOOKUP (shared/claim-lookup.ts): claims for the documents module's test-data picker, within
 * the caller's record scope (claimAccessFilter: the access module's conditions on `claims:claim`
 * `read`, decided in SQL like the claim list).
 */
export const claimLookupService = provideService(CLAIM_LOOKUP, (context: ServerPluginContext): ClaimLookup => ({
  async searchClaims(tx, query, caller) {
    const scope = await claimAccessFilter(context, caller as FastifyRequest, 'read');
    const pattern = containsPattern(query.search);
    const claimant = sql<
      string | null
    >`(select ${party.name} from ${party} where ${party.claimId} = ${claim.id} order by ${claimantOrder}, ${party.id} limit 1)`;
    const rows = await tx
      .select({ claimId: claim.id, number: claim.number, status: claim.status, claimant })
      .from(claim)
      .where(
        and(
          scope,
          query.search
            ? or(
                ilike(claim.number, pattern),
                ilike(claim.policyNumber, pattern),
                sql`exists (select 1 from ${party} where ${party.claimId} = ${claim.id} and ${party.name} ilike ${pattern})`,
              )
            : undefined,
        ),
      )
      .orderBy(desc(claim.id))
      .limit(query.limit);
    return rows;
  },

  async claimDocumentData(tx, claimId, caller) {
    const scope = await claimAccessFilter(context, caller as FastifyRequest, 'read');
    const [row] = await tx
      .select()
      .from(claim)
      .where(and(eq(claim.id, claimId), scope))
      .limit(1);
    if (!row) return null;
    const [claimant] = await tx
      .select({ name: party.name, addressId: party.addressId })
      .from(party)
      .where(eq(party.claimId, row.id))
      .orderBy(
        sql`case when ${party.role} = 'claimant' then 0 when ${party.id} = ${row.primaryInsuredPartyId ?? 0} then 1 else 2 end`,
        asc(party.id),
      )
      .limit(1);
    const [address] = claimant?.addressId
      ? await tx.select().from(location).where(eq(location.id, claimant.addressId)).limit(1)
      : [];
    const [adjuster] = row.primaryAdjuster
      ? await context.service(USER_DIRECTORY).findUsers(tx, [row.primaryAdjuster])
      : [];
    return {
      claim: {
        number: row.number,
        loss_date: day(row.dateOfLoss),
        reported_date: day(row.reportedDate ?? row.createdAt),
        description: row.lossDescription || null,
        claimant: { name: claimant?.name ?? null, address: addressLine(address ?? null) },
        policy_number: row.policyNumber,
        adjuster: { name: adjuster?.name ?? row.primaryAdjuster ?? null, phone: adjuster?.phone ?? null },
      },
    };
  },
}));
