import { createServiceRef, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * What other modules may read of claims (the claims module owns their tables): the documents
 * module's test-data picker for claim templates (a claim letter previewed with a real claim). Every
 * method takes the caller (`{ principal }`, a request) and applies their record scope on
 * `claims:claim` `read` (the same conditions as the claim list), so a claim the caller may not read
 * is never answered.
 */
export interface ClaimSummary {
  claimId: number;
  number: string;
  status: string;
  /** The first claimant party's name, else the insured's. */
  claimant: string | null;
}

export type ClaimLookup = {
  /** Claims whose number, policy number or claimant contains the text, newest first, within the caller's scope. */
  searchClaims(
    tx: Queryable,
    query: { search: string; limit: number },
    caller: { principal: unknown },
  ): Promise<ClaimSummary[]>;
  /**
   * One claim in the documents data-point catalogue's shape (`claim`: number, dates, description,
   * claimant, policy number, adjuster), or null when there is none the caller may read.
   */
  claimDocumentData(
    tx: Queryable,
    claimId: number,
    caller: { principal: unknown },
  ): Promise<Record<string, unknown> | null>;
};

export const CLAIM_LOOKUP: ServiceRef<ClaimLookup> = createServiceRef<ClaimLookup>('claims.lookup');
