import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ApiError,
  conflict,
  fieldError,
  notFound,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { DATA_POINTS, SAMPLES } from '../../shared/data-points.js';
import {
  MAPPING_SOURCES,
  unmappedRequired,
  type FieldMapping,
  type FormField,
  type FormMapping,
  type ImportedDocument,
} from '../../shared/forms.js';
import { SUBJECT_MESSAGE, SUBJECTS, type Subject } from '../../shared/shapes.js';
import { can } from '../permissions.js';
import { folder, importedDocument } from '../tables.js';
import { FormError, fillForm, readFields } from './acroform.js';

/**
 * Imported AcroForm PDFs (docs/documents.md, "Imported PDF forms"): upload, the fields pdf-lib
 * reads, the mapping editor's mapping, publishing (blocked while a required field is unmapped) and
 * a filled, flattened preview. Plain JSON like the versions routes; the PDF travels base64-encoded.
 */
const tags = ['documents'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const MAX_PDF_BYTES = 5 * 1024 * 1024;
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.')
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'Not a valid date.');
const subject = z.enum(SUBJECTS, { message: SUBJECT_MESSAGE });
const name = z.string().trim().min(1, 'A document name is required.').max(120);
/** The form's edition as its issuer prints it (`ACORD 25 (2016/03)`); one line. */
export const edition = z
  .string()
  .trim()
  .max(80, 'An edition is at most 80 characters, such as ACORD 25 (2016/03).')
  .regex(/^[^\r\n]*$/, 'An edition is one line, such as ACORD 25 (2016/03).');

export const fieldMapping = z.discriminatedUnion(
  'source',
  [
    z.strictObject({
      source: z.literal('data_point'),
      path: z.string().trim().min(1, 'Choose a data point.').max(200),
    }),
    z.strictObject({ source: z.literal('constant'), value: z.string().max(500) }),
    z.strictObject({ source: z.literal('ignored') }),
  ],
  { message: `A field's source must be one of ${MAPPING_SOURCES.map((s) => `'${s}'`).join(', ')}.` },
);
const mappingBody = z.record(z.string(), fieldMapping);

type Row = typeof importedDocument.$inferSelect;

export function view(row: Row): ImportedDocument {
  const fields = row.fields as FormField[];
  const mapping = row.mapping as FormMapping;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    subject: row.subject as Subject,
    folder_id: row.folderId,
    file_name: row.fileName,
    edition: row.edition,
    sha256: row.sha256,
    page_count: row.pageCount,
    fields,
    mapping,
    unmapped_required: unmappedRequired(fields, mapping),
    status: row.status as 'draft' | 'published',
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    published_by: row.publishedBy,
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

/** The paths a field may be mapped to: the subject's catalogue, less lists (a field holds one value). */
const mappablePaths = (s: Subject) =>
  new Set(DATA_POINTS.filter((p) => p.subject === s && p.type !== 'list' && !p.path.includes('[]')).map((p) => p.path));

/** Checks a mapping against the PDF's fields; the first problem is a 422 pointing at its field. */
export function checkMapping(fields: FormField[], mapping: FormMapping, s: Subject): void {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const paths = mappablePaths(s);
  for (const [fieldName, rule] of Object.entries(mapping) as [string, FieldMapping][]) {
    const field = byName.get(fieldName);
    const pointer = `mapping/${fieldName}`;
    if (!field) throw fieldError(pointer, `The PDF has no field named "${fieldName}".`, 422);
    if (rule.source === 'ignored') continue;
    if (field.kind === 'other') {
      throw fieldError(
        pointer,
        `The field "${fieldName}" is not a text, checkbox, radio or dropdown field; it can only be ignored.`,
        422,
      );
    }
    if (rule.source === 'data_point' && !paths.has(rule.path)) {
      throw fieldError(pointer, `"${rule.path}" is not a data point of a ${s}.`, 422);
    }
    if (rule.source === 'constant') {
      if (field.kind === 'checkbox' && !['checked', 'unchecked'].includes(rule.value)) {
        throw fieldError(pointer, `The checkbox "${fieldName}" takes 'checked' or 'unchecked'.`, 422);
      }
      if ((field.kind === 'radio' || field.kind === 'dropdown') && !field.options.includes(rule.value)) {
        throw fieldError(
          pointer,
          `"${rule.value}" is not one of the options of the field "${fieldName}" (${field.options.join(', ')}).`,
          422,
        );
      }
    }
  }
}

const asFormError = (error: unknown) =>
  error instanceof FormError ? new ApiError(422, error.message, { code: 'form_error' }) : error;

export function registerFormRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;

  async function find(formId: number) {
    const [row] = await db.select().from(importedDocument).where(eq(importedDocument.id, formId));
    if (!row) throw notFound(`Imported document ${formId} not found.`);
    return row;
  }

  async function checkFolder(folderId: number) {
    const [row] = await db.select({ id: folder.id }).from(folder).where(eq(folder.id, folderId));
    if (!row) throw fieldError('folder_id', `Folder ${folderId} not found.`, 422);
  }

  async function checkNameFree(folderId: number, wanted: string, except?: number) {
    const [clash] = await db
      .select({ id: importedDocument.id })
      .from(importedDocument)
      .where(and(eq(importedDocument.folderId, folderId), eq(importedDocument.name, wanted)));
    if (clash && clash.id !== except) throw conflict(`A document named "${wanted}" is already in this folder.`);
  }

  router.get(
    '/documents/imported-documents/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary: 'Lists imported PDF forms by name (optionally of one folder), without their PDFs.',
        tags,
        security,
        querystring: z.object({ folder_id: id.optional() }),
      },
    },
    async (request) => {
      const rows = await db
        .select()
        .from(importedDocument)
        .where(request.query.folder_id ? eq(importedDocument.folderId, request.query.folder_id) : undefined)
        .orderBy(asc(importedDocument.name), asc(importedDocument.id));
      return { count: rows.length, results: rows.map(view) };
    },
  );

  router.post(
    '/documents/imported-documents/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Imports an AcroForm PDF (base64) and lists its fields; it starts as a draft with nothing mapped.',
        tags,
        security,
        body: z.strictObject({
          name,
          description: z.string().max(2000).default(''),
          edition: edition.default(''),
          subject,
          folder_id: id,
          file_name: z.string().trim().min(1, 'A file name is required.').max(200),
          content_base64: z
            .string()
            .min(1, 'Choose a PDF file.')
            .max(Math.ceil((MAX_PDF_BYTES * 4) / 3) + 4, 'A PDF form is at most 5 MB.')
            .regex(/^[A-Za-z0-9+/=\s]+$/, 'The file content must be base64.'),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      await checkFolder(body.folder_id);
      await checkNameFree(body.folder_id, body.name);
      const bytes = Buffer.from(body.content_base64, 'base64');
      let read: Awaited<ReturnType<typeof readFields>>;
      try {
        read = await readFields(bytes);
      } catch (error) {
        throw asFormError(error);
      }
      if (read.fields.length === 0) {
        throw fieldError('content_base64', 'The PDF has no form fields to fill; import a PDF with an AcroForm.', 422);
      }
      const [row] = await db
        .insert(importedDocument)
        .values({
          name: body.name,
          description: body.description,
          edition: body.edition,
          subject: body.subject,
          folderId: body.folder_id,
          fileName: body.file_name,
          pdfBase64: bytes.toString('base64'),
          sha256: createHash('sha256').update(bytes).digest('hex'),
          pageCount: read.pageCount,
          fields: read.fields,
          mapping: {},
          createdBy: request.principal.username,
        })
        .returning();
      reply.code(201);
      return view(row!);
    },
  );

  router.get(
    '/documents/imported-documents/:id/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary: 'Reads an imported PDF form: its fields and mapping.',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => view(await find(request.params.id)),
  );

  router.patch(
    '/documents/imported-documents/:id/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary:
          'Changes a draft imported form: name, description, folder, and its whole mapping (a published form is frozen: 409).',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          name: name.optional(),
          description: z.string().max(2000).optional(),
          edition: edition.optional(),
          folder_id: id.optional(),
          mapping: mappingBody.optional(),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const row = await find(request.params.id);
      if (row.status === 'published') {
        throw conflict(`"${row.name}" is published and cannot be changed; import the form again for a new edition.`);
      }
      if (body.folder_id !== undefined) await checkFolder(body.folder_id);
      if (body.name !== undefined || body.folder_id !== undefined) {
        await checkNameFree(body.folder_id ?? row.folderId, body.name ?? row.name, row.id);
      }
      if (body.mapping) checkMapping(row.fields as FormField[], body.mapping, row.subject as Subject);
      const [next] = await db
        .update(importedDocument)
        .set({
          ...(body.name !== undefined && { name: body.name }),
          ...(body.description !== undefined && { description: body.description }),
          ...(body.edition !== undefined && { edition: body.edition }),
          ...(body.folder_id !== undefined && { folderId: body.folder_id }),
          ...(body.mapping !== undefined && { mapping: body.mapping }),
        })
        .where(and(eq(importedDocument.id, row.id), eq(importedDocument.status, 'draft')))
        .returning();
      if (!next)
        throw conflict(`"${row.name}" is published and cannot be changed; import the form again for a new edition.`);
      return view(next);
    },
  );

  router.delete(
    '/documents/imported-documents/:id/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Deletes a draft imported form (a published one: 409).',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request, reply) => {
      const row = await find(request.params.id);
      const [gone] = await db
        .delete(importedDocument)
        .where(and(eq(importedDocument.id, row.id), eq(importedDocument.status, 'draft')))
        .returning({ id: importedDocument.id });
      if (!gone) throw conflict(`"${row.name}" is published and cannot be deleted.`);
      reply.code(204);
      return null;
    },
  );

  router.post(
    '/documents/imported-documents/:id/publish/',
    {
      config: { access: can('template', 'publish') },
      schema: {
        summary: 'Publishes an imported form once every required field is mapped and it fills with sample data.',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      if (row.status === 'published') throw conflict(`"${row.name}" is already published.`);
      const missing = unmappedRequired(row.fields as FormField[], row.mapping as FormMapping);
      if (missing.length > 0) {
        throw new ApiError(
          422,
          `"${row.name}" cannot be published: required ${missing.length === 1 ? 'field' : 'fields'} ${missing.map((f) => `"${f}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not mapped.`,
          { code: 'unmapped_required', meta: { unmapped_required: missing } },
        );
      }
      try {
        await fillForm(
          Buffer.from(row.pdfBase64, 'base64'),
          row.mapping as FormMapping,
          SAMPLES[row.subject as Subject],
          '2026-01-01',
        );
      } catch (error) {
        const e = asFormError(error);
        if (e instanceof ApiError)
          throw new ApiError(422, `"${row.name}" cannot be published: ${e.message}`, { code: 'form_error' });
        throw e;
      }
      const [next] = await db
        .update(importedDocument)
        .set({ status: 'published', publishedBy: request.principal.username, publishedAt: new Date() })
        .where(and(eq(importedDocument.id, row.id), eq(importedDocument.status, 'draft')))
        .returning();
      if (!next) throw conflict(`"${row.name}" is already published.`);
      return view(next);
    },
  );

  router.get(
    '/documents/imported-documents/:id/pdf/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: 'The blank PDF form as imported.', tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      const row = await find(request.params.id);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="${row.fileName.replace(/[^\w.-]+/g, '_')}"`);
      return Buffer.from(row.pdfBase64, 'base64');
    },
  );

  router.post(
    '/documents/imported-documents/:id/preview/',
    {
      config: { access: can('template', 'read') },
      schema: {
        summary:
          "Fills and flattens the form with data (or its subject's sample) and a document date; lists the data points that did not resolve.",
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          data: z.record(z.string(), z.unknown()).optional(),
          date: isoDate.optional(),
          mapping: mappingBody.optional(),
        }),
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      const mapping = (request.body.mapping ?? row.mapping) as FormMapping;
      if (request.body.mapping) checkMapping(row.fields as FormField[], mapping, row.subject as Subject);
      try {
        const filled = await fillForm(
          Buffer.from(row.pdfBase64, 'base64'),
          mapping,
          request.body.data ?? SAMPLES[row.subject as Subject],
          request.body.date ?? new Date().toISOString().slice(0, 10),
        );
        return {
          page_count: filled.pageCount,
          unresolved_paths: filled.unresolvedPaths,
          pdf_base64: filled.pdf.toString('base64'),
        };
      } catch (error) {
        throw asFormError(error);
      }
    },
  );
}
