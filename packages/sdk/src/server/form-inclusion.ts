import type { Queryable } from './define-server-plugin.js';
import { createServiceRef, type ServiceRef } from './services.js';

/**
 * Which forms a policy's declarations carry, answered by deployed form-inclusion rules (issue 16
 * and 18). The rules module provides it; the documents module asks it while assembling
 * declarations and falls back to its own settings when it is not installed or has no answer. The
 * ref lives in the SDK so that neither module imports the other. Forms are named as the documents
 * module names its imported forms (the imported document's name); rules keeps no copy of them.
 */
export type FormTransactionKind = 'new_business' | 'change' | 'renewal';

export interface FormInclusionRequest {
  /** The lines product (`homeowners`): the rules project for that product answers. */
  line: string;
  /** YYYY-MM-DD, the document's own date: picks the effective date in force and is as_of_date(). */
  asOf: string;
  /** Two letters (`ME`); null when unknown. */
  state: string | null;
  transaction: FormTransactionKind;
  hasMortgagee: boolean;
  /** The policy's data in the documents data-point catalogue's shape (`{ policy: { premium … } }`). */
  dataPoints: Record<string, unknown>;
}

export interface IncludedForm {
  /** The imported form's name, as the documents module names it. */
  form: string;
  /** `suppress`: attached but never printed. */
  printing: 'print' | 'suppress';
  /** Printed on renewals too ("always print on renewal"). */
  printOnRenewal: boolean;
  /** Whether it prints on this request's transaction. */
  prints: boolean;
  /** The rules that decided. */
  rules: string[];
}

export interface FormInclusionAnswer {
  forms: IncludedForm[];
  /** Rules that failed to run (a step budget …); a caller should not print without them. */
  errors: { rule: string; message: string }[];
  project: { id: number; name: string };
  effectiveDate: { id: number; effective_date: string; deployment_id: number };
}

// A type, not an interface: a service's methods need the implicit index signature.
export type FormInclusionRules = {
  /**
   * The forms the deployed form-inclusion rules in force on `asOf` attach, in name order; null when
   * there is no rules project for the line, nothing deployed in force on the date, or the deployment
   * has no enabled form-inclusion rule — then the caller decides by its own means.
   */
  formsFor(tx: Queryable, request: FormInclusionRequest): Promise<FormInclusionAnswer | null>;
};

export const FORM_INCLUSION_RULES: ServiceRef<FormInclusionRules> =
  createServiceRef<FormInclusionRules>('rules.form-inclusion');
