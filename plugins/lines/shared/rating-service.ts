import type { RiskInput, TransactionType, Worksheet } from '@atrium/rating';
import { createServiceRef, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * The lines module's rating engine as other modules may call it (lines owns the product versions
 * and rate tables): rates a risk tree on the published version of a product in force on a day.
 * Policies re-rates renewals through it. Money comes back as decimal strings, dates are ISO days.
 */
export interface RateRiskRequest {
  /** The product's name, e.g. `personal_auto`. */
  product: string;
  /** The day that chooses the published version in force (latest effective date on or before it). */
  ratingDate: string;
  /**
   * Rates on this version of the product instead (published or retired: e.g. the version a policy
   * term was rated on, for a mid-term change); `ratingDate` then only names the day.
   */
  versionId?: number;
  transactionType: TransactionType;
  /** The term rated: first day and end day (exclusive). */
  termStart: string;
  termEnd: string;
  /** The root risk of the tree, as the engine reads it. */
  risk: RiskInput;
}

export type RateRiskOutcome =
  | {
      ok: true;
      productId: number;
      versionId: number;
      versionLabel: string;
      /** Full-term premium of the tree. */
      termPremium: string;
      worksheet: Worksheet;
    }
  /** The product has no version in force, or the engine refused the tree (message says why). */
  | { ok: false; code: string; message: string };

export type LinesRating = {
  rate(tx: Queryable, request: RateRiskRequest): Promise<RateRiskOutcome>;
};

export const LINES_RATING: ServiceRef<LinesRating> = createServiceRef<LinesRating>('lines.rating');
