import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError, conflict, notFound, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { unmappedRequired, type FieldMapping, type FormField, type FormMapping } from '../../shared/forms.js';
import { DOCUMENT_SERVICES } from '../../shared/service-catalogue.js';
import type { Subject } from '../../shared/shapes.js';
import { checkMapping, fieldMapping } from '../forms/form-routes.js';
import { can } from '../permissions.js';
import { importedDocument } from '../tables.js';

/**
 * The spec's "form fields" and "services" endpoints (docs/documents.md, "Form fields and services"),
 * JSON:API like folders and templates:
 *
 * GET   /documents/form-fields/?filter[imported_document]=  every field of the imported forms (name, mapping, edition)
 * GET   /documents/form-fields/{id}/                          one field; id `<imported document id>:<field name>`
 * PATCH /documents/form-fields/{id}/                          one field's mapping, on a draft form
 * GET   /documents/services/                                  the typed services documents offers other modules
 *
 * A form field lives in its imported document's `fields` and `mapping` (one row per form); these
 * routes read and write those, so the form's page and these routes always agree.
 */
const tags = ['documents'];
const security = [{ bearer: [] }];
const FIELD_TYPE = 'documents-form-field';
const FORM_TYPE = 'documents-imported-document';

type FormRow = typeof importedDocument.$inferSelect;

function fieldResource(form: FormRow, field: FormField) {
  const mapping = (form.mapping as FormMapping)[field.name] ?? null;
  return {
    type: FIELD_TYPE,
    id: `${form.id}:${field.name}`,
    attributes: {
      name: field.name,
      mapping,
      edition: form.edition,
      kind: field.kind,
      required: field.required,
      options: field.options,
      unmapped: unmappedRequired([field], form.mapping as FormMapping).length > 0,
      form_status: form.status,
    },
    relationships: { imported_document: { data: { type: FORM_TYPE, id: String(form.id) } } },
  };
}

const fieldId = z
  .string()
  .regex(/^[1-9]\d{0,9}:.+$/, 'A form field id is the form id and the field name: 3:policy_number.')
  .transform((value) => {
    const at = value.indexOf(':');
    return { formId: Number(value.slice(0, at)), field: value.slice(at + 1) };
  });

export function registerCatalogueRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;

  async function findField(id: { formId: number; field: string }, raw: string) {
    const [form] = await db.select().from(importedDocument).where(eq(importedDocument.id, id.formId));
    const field = form ? (form.fields as FormField[]).find((f) => f.name === id.field) : undefined;
    if (!form || !field) throw notFound(`Form field ${raw} not found.`);
    return { form, field };
  }

  router.get(
    '/documents/form-fields/',
    {
      config: { access: can('template', 'read'), jsonapi: true },
      schema: {
        summary: "The imported forms' fields: name, mapping and the form's edition (optionally of one form).",
        tags,
        security,
        querystring: z.object({
          'filter[imported_document]': z.coerce
            .number({ message: 'filter[imported_document] is an imported document id.' })
            .int('filter[imported_document] is an imported document id.')
            .positive('filter[imported_document] is an imported document id.')
            .optional(),
        }),
      },
    },
    async (request) => {
      const only = request.query['filter[imported_document]'];
      const forms = await db
        .select()
        .from(importedDocument)
        .where(only ? eq(importedDocument.id, only) : undefined)
        .orderBy(asc(importedDocument.name), asc(importedDocument.id));
      if (only && forms.length === 0) throw notFound(`Imported document ${only} not found.`);
      const data = forms.flatMap((form) => (form.fields as FormField[]).map((field) => fieldResource(form, field)));
      return { data, meta: { count: data.length } };
    },
  );

  router.get(
    '/documents/form-fields/:id/',
    {
      config: { access: can('template', 'read'), jsonapi: true },
      schema: { summary: 'One form field: name, mapping, edition.', tags, security, params: z.object({ id: fieldId }) },
    },
    async (request) => {
      const { form, field } = await findField(
        request.params.id,
        `${request.params.id.formId}:${request.params.id.field}`,
      );
      return { data: fieldResource(form, field) };
    },
  );

  router.patch(
    '/documents/form-fields/:id/',
    {
      config: { access: can('template', 'author'), jsonapi: true },
      schema: {
        summary:
          "Maps one field of a draft form (a data point, a constant, ignored) or unmaps it (mapping null); a published form is frozen (409). The edition is the form's: change it on the imported document.",
        tags,
        security,
        params: z.object({ id: fieldId }),
        body: z.strictObject({
          data: z.strictObject({
            type: z.literal(FIELD_TYPE, { message: `The type must be '${FIELD_TYPE}'.` }),
            id: z.string().optional(),
            attributes: z.strictObject({ mapping: fieldMapping.nullable() }),
          }),
        }),
      },
    },
    async (request) => {
      const raw = `${request.params.id.formId}:${request.params.id.field}`;
      const { data } = request.body;
      if (data.id !== undefined && data.id !== raw) {
        throw conflict(`The document's id ${data.id} is not the field ${raw} of the URL.`);
      }
      return db.transaction(async (tx) => {
        const [form] = await tx
          .select()
          .from(importedDocument)
          .where(eq(importedDocument.id, request.params.id.formId))
          .for('update');
        const field = form ? (form.fields as FormField[]).find((f) => f.name === request.params.id.field) : undefined;
        if (!form || !field) throw notFound(`Form field ${raw} not found.`);
        if (form.status === 'published') {
          throw conflict(`"${form.name}" is published and cannot be changed; import the form again for a new edition.`);
        }
        const mapping = { ...(form.mapping as FormMapping) };
        const rule = data.attributes.mapping as FieldMapping | null;
        if (rule === null) delete mapping[field.name];
        else {
          mapping[field.name] = rule;
          try {
            checkMapping([field], { [field.name]: rule }, form.subject as Subject);
          } catch (error) {
            // The same checks as the whole mapping's, pointing into this document.
            if (!(error instanceof ApiError)) throw error;
            throw new ApiError(error.status, error.message, { source: { pointer: '/data/attributes/mapping' } });
          }
        }
        const [next] = await tx
          .update(importedDocument)
          .set({ mapping })
          .where(eq(importedDocument.id, form.id))
          .returning();
        return { data: fieldResource(next!, field) };
      });
    },
  );

  router.get(
    '/documents/services/',
    {
      config: { access: can('template', 'read'), jsonapi: true },
      schema: {
        summary: 'The typed services the documents module offers other modules (read-only, for integrators).',
        tags,
        security,
      },
    },
    async () => ({
      data: DOCUMENT_SERVICES.map(({ id, ...attributes }) => ({ type: 'documents-service', id, attributes })),
      meta: { count: DOCUMENT_SERVICES.length },
    }),
  );
}
