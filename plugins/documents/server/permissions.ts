import { definePermissions } from '@atrium/sdk/server';

/**
 * What the documents module checks. Template authoring (folders, templates, draft versions,
 * previews) is `author` and publishing is `publish`, actions the system policies give only to
 * Product and Rules Authors (`documents:*`) and administrators; the claims and underwriting roles,
 * whose policies allow read/create/update on `documents:*`, read templates and produce documents.
 * Reads of production documents apply the record scope of the record they were rendered for.
 */
export const documentsPermissions = definePermissions('documents', {
  grantVersion: 2,
  module: 'the Documents module',
  resources: {
    template: {
      actions: {
        read: 'List and read document folders, templates, versions and data points.',
        author: 'Create and change folders, templates and draft versions; preview template source.',
        publish: 'Publish a template version (it is frozen from then on).',
      },
    },
    'production-document': {
      actions: {
        read: 'List and read production documents and their PDFs.',
        create: 'Render production documents from published template versions.',
        update: 'Put production documents on the print queue, mark them printed, and e-mail them.',
      },
    },
  },
  // Agents and agencies read the documents of the records in their book (the production-document
  // routes apply each record's module's scope); they do not see the module itself.
  grants: {
    Agent: { 'production-document': ['read'] },
    Agency: { 'production-document': ['read'] },
  },
});

export const can = documentsPermissions.can;
