import { attributeError, declareResource, type ResourceDeclaration } from '@atrium/sdk/server';
import { folderShape, templateShape } from '../shared/shapes.js';
import { folder, template } from './tables.js';

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
  openapi: { summary: 'Document templates', tags: ['documents'], security: [{ bearer: [] }] },
});
