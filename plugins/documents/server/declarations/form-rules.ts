import { and, eq, inArray } from 'drizzle-orm';
import {
  ApiError,
  FORM_INCLUSION_RULES,
  type FormTransactionKind,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { DeclarationsRequest } from '../../shared/services.js';
import { importedDocument } from '../tables.js';

/** A revision's transaction kind when the caller does not say it (see DeclarationsRequest.transaction). */
export function transactionOf(request: DeclarationsRequest): FormTransactionKind {
  if (request.transaction) return request.transaction;
  if (request.renewal) return 'renewal';
  const policy = request.data.policy as { term_start?: unknown } | undefined;
  return policy?.term_start === request.documentDate ? 'new_business' : 'change';
}

/**
 * The imported forms (ids, in the rules' order: by name) that the rules module's deployed
 * form-inclusion rules print on these declarations; null when the rules module is not installed or
 * has no form-inclusion rules in force for the line on the document's date — then the settings
 * decide. Rules name forms by the imported document's name; each must be one published policy form.
 */
export async function formsByRules(
  context: Pick<ServerPluginContext, 'optionalService'>,
  tx: Queryable,
  request: DeclarationsRequest,
): Promise<number[] | null> {
  const rules = context.optionalService(FORM_INCLUSION_RULES);
  if (!rules) return null;
  const answer = await rules.formsFor(tx, {
    line: request.line,
    asOf: request.documentDate,
    state: request.state,
    transaction: transactionOf(request),
    hasMortgagee: request.hasMortgagee,
    dataPoints: request.data,
  });
  if (!answer) return null;
  if (answer.errors.length > 0) {
    // Printing without a form a rule could not decide on would be silently wrong paper.
    throw new ApiError(422, `The form rules of ${answer.project.name} could not run: ${answer.errors[0]!.message}`, {
      code: 'form_rules_failed',
    });
  }
  const names = answer.forms.filter((f) => f.prints).map((f) => f.form);
  if (names.length === 0) return [];
  const rows = await tx
    .select({ id: importedDocument.id, name: importedDocument.name })
    .from(importedDocument)
    .where(
      and(
        inArray(importedDocument.name, names),
        eq(importedDocument.status, 'published'),
        eq(importedDocument.subject, 'policy'),
      ),
    );
  return names.map((name) => {
    const found = rows.filter((r) => r.name === name);
    if (found.length === 0) {
      throw new ApiError(
        422,
        `The form rules of ${answer.project.name} attach "${name}", which is not a published policy form.`,
        { code: 'form_not_found' },
      );
    }
    if (found.length > 1) {
      throw new ApiError(
        422,
        `Two published policy forms are named "${name}"; rename one so the form rules name one form.`,
        {
          code: 'form_ambiguous',
        },
      );
    }
    return found[0]!.id;
  });
}
