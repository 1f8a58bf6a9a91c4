import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { ApiError, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import type { FormMapping } from '../../shared/forms.js';
import type { DeclarationsFile, DeclarationsRequest, DeclarationsService } from '../../shared/services.js';
import { FormError } from '../forms/acroform.js';
import { gatherInputs } from '../library/inputs.js';
import { rendererVersion } from '../render/pool.js';
import { poolFor } from '../render/shared-pool.js';
import { importedDocument, productionDocument, template } from '../tables.js';
import { noVersionInForce, versionInForce } from '../version-in-force.js';
import { assemble, type AssemblyPart } from './assembly.js';
import { formsByRules } from './form-rules.js';
import { formsToPrint, readDeclarationsSettings } from './settings.js';

const PURPOSE = 'declarations';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The PDF of an imported form, by id (published forms are frozen, so the bytes never change). */
export const formPdfReader = (db: Queryable) => async (formId: number) => {
  const [row] = await db
    .select({ pdf: importedDocument.pdfBase64 })
    .from(importedDocument)
    .where(eq(importedDocument.id, formId));
  if (!row) throw new ApiError(422, `Imported document ${formId} no longer exists.`);
  return Buffer.from(row.pdf, 'base64');
};

/**
 * DOCUMENT_DECLARATIONS (shared/services.ts): a policy revision's declarations — the line's dec page
 * template (settings) in the version effective on the revision's own date, then the imported forms
 * the form rules attach, merged — produced on the first request and stored as a production document
 * (purpose `declarations`, key the revision id), read back on every later one.
 */
export function declarationsService(context: ServerPluginContext): DeclarationsService {
  const view = (
    row: typeof productionDocument.$inferSelect,
    templateName: string,
    parts: AssemblyPart[],
  ): DeclarationsFile => ({
    fileId: row.id,
    title: `${templateName} (${row.documentDate})`,
    mimeType: 'application/pdf',
    url: `/api/documents/production-documents/${row.id}/pdf/`,
    sha256: row.sha256,
    pageCount: row.pageCount,
    forms: parts.map((p) => p.name),
  });

  async function existing(tx: Queryable, key: string) {
    const [row] = await tx
      .select({ doc: productionDocument, name: template.name })
      .from(productionDocument)
      .innerJoin(template, eq(template.id, productionDocument.templateId))
      .where(and(eq(productionDocument.purpose, PURPOSE), eq(productionDocument.purposeKey, key)));
    return row ? view(row.doc, row.name, row.doc.parts as AssemblyPart[]) : null;
  }

  return {
    async declarationsFor(tx, request: DeclarationsRequest) {
      const found = await existing(tx, request.key);
      if (found) return found;
      const settings = await readDeclarationsSettings(tx);
      const dec = settings.declarations.find((d) => d.line === request.line);
      if (!dec) return { fileId: null, detail: `No declarations page is set for the line ${request.line}.` };
      const [tpl] = await tx.select().from(template).where(eq(template.id, dec.template_id));
      if (!tpl) return { fileId: null, detail: `The declarations template ${dec.template_id} no longer exists.` };
      const chosen = await versionInForce(tx, tpl.id, request.documentDate);
      if (!chosen) return { fileId: null, detail: noVersionInForce(tpl.name, request.documentDate) };
      // The rules module's deployed form-inclusion rules decide when it has them for the line;
      // otherwise the settings' three rules do (docs/documents.md, "Which forms").
      const byRules = await formsByRules(context, tx, request);
      const formIds = byRules ?? formsToPrint(settings.form_rules, request).map((r) => r.imported_document_id);
      const forms = formIds.length
        ? await tx
            .select({ id: importedDocument.id, name: importedDocument.name, mapping: importedDocument.mapping })
            .from(importedDocument)
            .where(and(inArray(importedDocument.id, formIds), eq(importedDocument.status, 'published')))
        : [];
      const parts: AssemblyPart[] = formIds.flatMap((formId) => {
        const form = forms.find((f) => f.id === formId);
        return form ? [{ imported_document_id: form.id, name: form.name, mapping: form.mapping as FormMapping }] : [];
      });
      const { inputs, files } = await gatherInputs(tx, chosen.source);
      let assembled: Awaited<ReturnType<typeof assemble>>;
      try {
        assembled = await assemble(poolFor(context.db), {
          source: chosen.source,
          data: request.data,
          date: request.documentDate,
          title: tpl.name,
          parts,
          formPdf: formPdfReader(tx),
          files,
        });
      } catch (error) {
        if (error instanceof FormError) throw new ApiError(422, error.message, { code: 'form_error' });
        throw error;
      }
      const [row] = await tx
        .insert(productionDocument)
        .values({
          templateId: tpl.id,
          versionId: chosen.id,
          documentDate: request.documentDate,
          data: request.data,
          rendererVersion: rendererVersion(),
          sha256: sha256(assembled.pdf),
          pageCount: assembled.pageCount,
          pdfBase64: assembled.pdf.toString('base64'),
          recordType: 'policy',
          recordId: request.record.id,
          agentContactId: request.record.agentContactId,
          agencyContactId: request.record.agencyContactId,
          createdBy: request.createdBy,
          purpose: PURPOSE,
          purposeKey: request.key,
          parts,
          inputs,
        })
        // Two first requests at once: the second keeps the first's document.
        .onConflictDoNothing()
        .returning();
      if (!row) return (await existing(tx, request.key))!;
      return view(row, tpl.name, parts);
    },
  };
}
