import { eq } from 'drizzle-orm';
import { attributeError, conflict, declareResource, type ResourceDeclaration } from '@atrium/sdk/server';
import { folderShape, templateShape } from '../shared/shapes.js';
import { folder, importedDocument, productionDocument, template } from './tables.js';

const authoring = {
  resource: 'documents:template',
  actions: {
    read: { resource: 'documents:template', action: 'read' },
    create: { resource: 'documents:template', action: 'author' },
    update: { resource: 'documents:template', action: 'author' },
    delete: { resource: 'documents:template', action: 'author' },
  },
};

/** Folders of the template tree: /api/documents/folders/ (JSON:API, `include=parent`). */
export const folders: ResourceDeclaration<typeof folderShape> = declareResource({
  shape: folderShape,
  table: folder,
  permission: authoring,
  related: { parent: (): ResourceDeclaration<typeof folderShape> => folders },
  hooks: {
    async validate(values, { action, before }) {
      if (action !== 'update' || values.parentId === undefined || values.parentId === null) return;
      if (values.parentId === (await before())?.id)
        throw attributeError('parent', 'A folder cannot be its own parent.');
    },
    // Say why in words (the built-in 409 names the JSON:API type); the foreign keys still guard a race.
    async beforeDelete(row, { context }) {
      const [child] = await context.db
        .select({ id: folder.id })
        .from(folder)
        .where(eq(folder.parentId, row.id))
        .limit(1);
      const [inside] = child
        ? [child]
        : await context.db.select({ id: template.id }).from(template).where(eq(template.folderId, row.id)).limit(1);
      const [form] = inside
        ? [inside]
        : await context.db
            .select({ id: importedDocument.id })
            .from(importedDocument)
            .where(eq(importedDocument.folderId, row.id))
            .limit(1);
      if (form) throw conflict(`The folder "${row.name}" is not empty; move or delete what is in it first.`);
    },
  },
  openapi: { summary: 'Document template folders', tags: ['documents'], security: [{ bearer: [] }] },
});

/** Templates: /api/documents/templates/ (JSON:API, `include=folder`); the source is in the versions. */
export const templates = declareResource({
  shape: templateShape,
  table: template,
  permission: authoring,
  related: { folder: () => folders },
  messages: {
    unique: {
      attribute: 'name',
      status: 409,
      detail: (v) => `A template named "${v.name}" is already in this folder.`,
    },
  },
  hooks: {
    async beforeDelete(row, { context }) {
      const [rendered] = await context.db
        .select({ id: productionDocument.id })
        .from(productionDocument)
        .where(eq(productionDocument.templateId, row.id))
        .limit(1);
      if (rendered) throw conflict(`Documents were rendered from "${row.name}"; it cannot be deleted.`);
    },
  },
  openapi: { summary: 'Document templates', tags: ['documents'], security: [{ bearer: [] }] },
});
