/**
 * The re-rate difference as the API answers it (`GET /quote/{n}/rating/difference/`, `rating.difference`
 * of a rate): one definition for the server that computes it and the screens that show it.
 */
/** One premium or factor of one risk, before and after a re-rate (decimal strings; null: absent). */
export interface RatingChange {
  /** The risk's worksheet path (`home#12/scheduled_article#13`). */
  risk: string;
  /** The risk as a person reads it: `Home`, `Scheduled article 1`. */
  risk_label: string;
  /** The calculation's name and label. */
  name: string;
  label: string;
  before: string | null;
  after: string | null;
  /** after − before (a missing side counts 0). */
  change: string;
}

/** What a re-rate changed: the premium, each coverage's premium and each factor that moved. */
export interface RatingDifference {
  previous: { premium: string; rated_at: string | null } | null;
  current: { premium: string; rated_at: string | null } | null;
  /** current − previous premium, or null before a second rating. */
  premium_change: string | null;
  /** Premium calculations (the risks' premiums and every `…_premium`), per risk; all of them. */
  coverages: RatingChange[];
  /** Every other calculation whose value changed (factor by factor). */
  factors: RatingChange[];
  /** Answers, limits and rate-table reads that changed (the worksheet's own difference messages). */
  inputs: string[];
}
