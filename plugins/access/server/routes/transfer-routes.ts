import { ApiError, readUploadedFile, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import type { AccessState } from '../access-state.js';
import { ACCESS_PERMISSIONS } from '../permissions.js';
import { buildExport, exportToCsv } from '../transfer/access-export.js';
import { applyImport, checkImportDocument, readImportFile } from '../transfer/access-import.js';
import { writeAccess } from './access-write.js';

/**
 * `GET export?file_format=json|csv` downloads roles, policies and assignments (file name in
 * content-disposition); `POST import` uploads such a file — multipart/form-data with the file in the
 * `file` field, or the file itself as the body (application/json or text/csv) — and applies it all
 * or nothing.
 */
const tags = ['access'];
const security = [{ bearer: [] }];
const UPLOAD_LIMIT = 10 * 1024 * 1024;

const counts = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() });
const importOut = z.object({
  imported: z.object({
    roles: counts,
    policies: counts,
    policy_assignments: counts,
    role_user_name_assignments: counts,
    role_group_name_assignments: counts,
  }),
});

export async function transferRoutes(router: AtriumRouter, db: Database, state: AccessState) {
  // Uploads arrive whole as a Buffer; the handler reads the file out of them (scoped to this module).
  router.addContentTypeParser(
    ['multipart/form-data', 'text/csv'],
    { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT },
    (_request, body, done) => done(null, body),
  );

  router.get(
    '/export',
    {
      config: { access: ACCESS_PERMISSIONS.exportAccess },
      schema: {
        summary: 'Downloads roles, policies and assignments as a file (JSON by default, or CSV).',
        tags,
        security,
        querystring: z.strictObject({ file_format: z.enum(['json', 'csv']).default('json') }),
      },
    },
    async (request, reply) => {
      const document = await buildExport(db);
      const format = request.query.file_format;
      const filename = `atrium-access-${document.exported_at.slice(0, 10)}.${format}`;
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      reply.header('cache-control', 'no-store');
      if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(exportToCsv(document));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(document, null, 2));
    },
  );

  router.post(
    '/import',
    {
      config: { access: ACCESS_PERMISSIONS.importAccess },
      bodyLimit: UPLOAD_LIMIT,
      schema: {
        summary: 'Uploads an export file and applies it in one transaction: everything or nothing.',
        description:
          'multipart/form-data with the file in `file`, or the file as the body (application/json, text/csv). Roles and custom policies are matched by name and updated or created; assignments are added when missing; nothing is deleted. Errors point into the file (e.g. /policies/2/statements/0/effect).',
        tags,
        security,
        response: { 200: importOut },
      },
    },
    async (request) => {
      const contentType = String(request.headers['content-type'] ?? '');
      let parsed: unknown;
      if (/^multipart\/form-data/i.test(contentType)) {
        const file = await readUploadedFile(request.body as Buffer, contentType);
        if (!file)
          throw new ApiError(400, "Attach the export file in the form field 'file'.", {
            source: { parameter: 'file' },
            code: 'required',
          });
        parsed = readImportFile(file.data, file);
      } else if (/^text\/csv/i.test(contentType)) {
        parsed = readImportFile(request.body as Buffer, { contentType });
      } else if (/^application\/json/i.test(contentType)) {
        parsed = request.body;
      } else {
        throw new ApiError(415, 'Upload the export file as multipart/form-data, application/json or text/csv.');
      }
      const document = checkImportDocument(parsed);
      const imported = await writeAccess(db, state, (tx) => applyImport(tx, document), {
        entity: 'configuration',
        action: 'imported',
        request,
        describe: (counts) => ({ id: null, name: JSON.stringify(counts) }),
      });
      return { imported };
    },
  );
}
