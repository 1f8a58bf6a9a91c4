/** What the FNOL wizard collects; saved on the server as a claim with status draft. */
export interface PolicyCoverage {
  coverage_type: string;
  label: string;
  limit: string;
  deductible: string;
  risk: string;
}

export interface PolicyRevisionSummary {
  id: string;
  number: string;
  effective_date: string | null;
  expiration_date: string | null;
  policy_type: string | null;
  coverages: PolicyCoverage[];
}

export interface PolicySummary {
  /** The policy's id in its source: a mock policy's or the policies module's (never mixed up: see source). */
  id: string;
  /** 'policies': the policies module's policy; 'mock': a test policy of Mock Policies Maintenance. */
  source: 'policies' | 'mock';
  /** For a policies-module policy, the loss date its revision (the only one listed) is in force on. */
  policy_date?: string;
  policy_number: string;
  primary_insured: string;
  policy_type: string | null;
  status: string | null;
  revisions: PolicyRevisionSummary[];
}

export interface ReportedBy {
  name: string;
  relation: string;
  phone: string;
  email: string;
  reported_method: string;
}

export interface LossDetails {
  date_of_loss: string;
  loss_description: string;
  line1: string;
  city: string;
  state: string;
  zip: string;
  peril: string;
  loss_category: string;
}

export interface ClaimantExposure {
  claimant_name: string;
  /** The revision's coverage type the exposure claims under. */
  coverage_type: string;
  /** Its label, as shown. */
  coverage: string;
  description: string;
}

export type PolicySearchBy = 'policyNumber' | 'name';

/** The wizard's steps; the product-specific ones (loss details, claimants) sit between Reported By and Submit. */
export const FNOL_STEPS = ['policy-search', 'reported-by', 'loss-details', 'claimants', 'submit-claim'] as const;
export type FnolStep = (typeof FNOL_STEPS)[number];
export const FNOL_STEP_LABELS: Record<FnolStep, string> = {
  'policy-search': 'Policy Search',
  'reported-by': 'Reported By',
  'loss-details': 'Loss Details',
  claimants: 'Claimants and Exposures',
  'submit-claim': 'Submit Claim',
};

export interface FnolDraft {
  /** The draft claim's id once saved. */
  claimId: string | null;
  fnolNumber: string | null;
  /**
   * The claims product the server resolved for the saved draft (from the policy type): the loss
   * details offer only its perils and loss categories (and the global ones).
   */
  productId: string | null;
  etag: string | null;
  policy: PolicySummary | null;
  revisionId: string | null;
  reportedBy: ReportedBy;
  loss: LossDetails;
  claimants: ClaimantExposure[];
}

export const emptyDraft = (): FnolDraft => ({
  claimId: null,
  fnolNumber: null,
  productId: null,
  etag: null,
  policy: null,
  revisionId: null,
  reportedBy: { name: '', relation: '', phone: '', email: '', reported_method: '' },
  loss: {
    date_of_loss: '',
    loss_description: '',
    line1: '',
    city: '',
    state: '',
    zip: '',
    peril: '',
    loss_category: '',
  },
  claimants: [],
});

/** A loaded FNOL: still a draft (resume at its step) or already a claim (open it). */
export interface LoadedFnol {
  draft: FnolDraft;
  step: FnolStep;
  status: string;
  claimNumber: string;
}

export interface SavedDraft {
  claimId: string;
  fnolNumber: string;
  productId: string | null;
  etag: string | null;
}
