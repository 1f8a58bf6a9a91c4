import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { fieldError, type Queryable } from '@atrium/sdk/server';
import { importedDocument, setting, template } from '../tables.js';

/**
 * The declarations settings (docs/documents.md, "Settings"): which template is each line's dec page,
 * and the form rules that attach imported forms to a line — until the rules module provides form
 * rules, the three rules of the previous product are settings here.
 */
const slug = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]*$/, 'A line is its product slug, such as homeowners.');
const id = z.number().int().positive();

export const declarationsSettings = z.strictObject({
  declarations: z.array(z.strictObject({ line: slug, template_id: id })).max(100),
  form_rules: z
    .array(
      z.strictObject({
        line: slug,
        imported_document_id: id,
        /** Only on policies of this state (two letters); null for every state. */
        state: z
          .string()
          .regex(/^[A-Z]{2}$/, 'A state is two capital letters, such as ME.')
          .nullable()
          .default(null),
        /** Attached but never printed. */
        suppress_printing: z.boolean().default(false),
        /** Printed on renewals too (other forms print with new business and changes only). */
        always_print_on_renewal: z.boolean().default(false),
        /** Printed only when a mortgagee is on the policy. */
        mortgagee_only: z.boolean().default(false),
      }),
    )
    .max(500),
});
export type DeclarationsSettings = z.infer<typeof declarationsSettings>;
export type FormRule = DeclarationsSettings['form_rules'][number];

const KEY = 'declarations';
const EMPTY: DeclarationsSettings = { declarations: [], form_rules: [] };

export async function readDeclarationsSettings(db: Queryable): Promise<DeclarationsSettings> {
  const [row] = await db.select().from(setting).where(eq(setting.key, KEY));
  return row ? (row.value as DeclarationsSettings) : EMPTY;
}

/** Checks the settings against the templates and forms they name; the first problem is a 422. */
export async function checkDeclarationsSettings(db: Queryable, value: DeclarationsSettings): Promise<void> {
  const lines = new Set<string>();
  for (const [i, d] of value.declarations.entries()) {
    if (lines.has(d.line)) throw fieldError(`declarations/${i}/line`, `The line ${d.line} has two dec pages.`, 422);
    lines.add(d.line);
  }
  const templateIds = value.declarations.map((d) => d.template_id);
  const templates = templateIds.length ? await db.select().from(template).where(inArray(template.id, templateIds)) : [];
  for (const [i, d] of value.declarations.entries()) {
    const found = templates.find((t) => t.id === d.template_id);
    if (!found) throw fieldError(`declarations/${i}/template_id`, `Template ${d.template_id} not found.`, 422);
    if (found.subject !== 'policy') {
      throw fieldError(`declarations/${i}/template_id`, `"${found.name}" is written for a claim, not a policy.`, 422);
    }
  }
  const formIds = value.form_rules.map((r) => r.imported_document_id);
  const forms = formIds.length
    ? await db.select().from(importedDocument).where(inArray(importedDocument.id, formIds))
    : [];
  for (const [i, r] of value.form_rules.entries()) {
    const found = forms.find((f) => f.id === r.imported_document_id);
    const pointer = `form_rules/${i}/imported_document_id`;
    if (!found) throw fieldError(pointer, `Imported document ${r.imported_document_id} not found.`, 422);
    if (found.status !== 'published') {
      throw fieldError(pointer, `"${found.name}" is a draft; publish it before attaching it to a line.`, 422);
    }
    if (found.subject !== 'policy')
      throw fieldError(pointer, `"${found.name}" is filled from a claim, not a policy.`, 422);
  }
}

export async function writeDeclarationsSettings(db: Queryable, value: DeclarationsSettings, by: string) {
  await db
    .insert(setting)
    .values({ key: KEY, value, updatedBy: by })
    .onConflictDoUpdate({ target: setting.key, set: { value, updatedBy: by, updatedAt: new Date() } });
}

/** The forms a declaration prints, in the order of the rules: the three rules of the previous product. */
export function formsToPrint(
  rules: FormRule[],
  policy: { line: string; state: string | null; renewal: boolean; hasMortgagee: boolean },
): FormRule[] {
  return rules.filter(
    (r) =>
      r.line === policy.line &&
      (r.state === null || r.state === policy.state) &&
      !r.suppress_printing &&
      (!policy.renewal || r.always_print_on_renewal) &&
      (!r.mortgagee_only || policy.hasMortgagee),
  );
}
