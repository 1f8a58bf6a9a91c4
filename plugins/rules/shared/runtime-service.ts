import type { ElementState, RiskModel, RuleRunError, RuleUser, UnderwritingIssue } from '@atrium/rating/rules';
import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * The deployed rules as other modules run them (quote: UI controls on a page, underwriting issues
 * at rate, submit and bind). The rules come from the project of the product (or the named
 * project), its latest published effective date on or before `asOf`, and that date's latest
 * deployment. No deployment in force: no actions, no issues, `effectiveDate` null.
 */
export interface RulesRunRequest {
  /** The lines product the quote is for (the project with this product), unless `project` is given. */
  product?: string;
  /** A rules project by name. */
  project?: string;
  /** YYYY-MM-DD: the quote's date; picks the effective date and is what as_of_date() gives. */
  asOf: string;
  user: RuleUser;
  viewId?: string;
  /** The risk tree on screen. */
  risk: RiskModel;
  /** Element names to answer (untouched ones with defaults); default: every element a rule touched. */
  elements?: string[];
  extra?: Record<string, unknown>;
}

export interface RulesRunResult {
  actions: ElementState[];
  issues: UnderwritingIssue[];
  errors: RuleRunError[];
  project: { id: number; name: string } | null;
  effectiveDate: { id: number; effective_date: string; deployment_id: number } | null;
}

export type RulesRuntime = {
  run(tx: Queryable, request: RulesRunRequest): Promise<RulesRunResult>;
  /** Only the underwriting issues; those whose `blocking` is the given point (or worse) when `at` is set. */
  underwritingIssues(
    tx: Queryable,
    request: RulesRunRequest & { at?: 'rate' | 'submit' | 'bind' },
  ): Promise<UnderwritingIssue[]>;
};

export const RULES_RUNTIME = createServiceRef<RulesRuntime>('rules.runtime');
