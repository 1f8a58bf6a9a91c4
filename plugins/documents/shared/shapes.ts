import { defineResourceShape } from '@atrium/sdk/shared';
import { z } from 'zod';

/**
 * Folders and templates as both halves see them (JSON:API, declared once: server/resources.ts adds
 * the tables and permissions, the web half derives its clients). Versions, previews, production
 * documents and data points are hand-written routes (server/routes.ts): a version is a status
 * machine whose published state is frozen, and the others are not collections of rows.
 */
export const SUBJECTS = ['policy', 'claim', 'quote'] as const;
export type Subject = (typeof SUBJECTS)[number];
/** The refusal of any other subject, the same wherever a subject is taken. */
export const SUBJECT_MESSAGE = "The subject must be 'policy', 'claim' or 'quote'.";

export const folderShape = defineResourceShape({
  type: 'documents-folder',
  path: '/documents/folders/',
  style: 'jsonapi',
  attributes: {
    name: z.string().trim().min(1, 'A folder name is required.').max(120),
  },
  relationships: { parent: { type: 'documents-folder', column: 'parentId' } },
  orderings: ['name', 'id'],
  pageSize: 200,
});

export const templateShape = defineResourceShape({
  type: 'documents-template',
  path: '/documents/templates/',
  style: 'jsonapi',
  attributes: {
    name: z.string().trim().min(1, 'A template name is required.').max(120),
    // Optional, not .default(''): a PATCH without it (a rename) must keep the description (the column defaults to '').
    description: z.string().max(2000).optional(),
    subject: z.enum(SUBJECTS, { message: SUBJECT_MESSAGE }),
  },
  relationships: { folder: { type: 'documents-folder' } },
  filters: { folder_id: { kind: 'integer', aliases: ['filter[folder]'] } },
  orderings: ['name', 'id'],
  pageSize: 200,
});

export const VERSION_STATUSES = ['draft', 'published'] as const;

/** A template version as the API answers it. */
export interface TemplateVersion {
  id: number;
  template_id: number;
  number: number;
  name: string;
  description: string;
  effective_date: string;
  status: (typeof VERSION_STATUSES)[number];
  source: string;
  created_by: string;
  created_at: string;
  published_by: string | null;
  published_at: string | null;
}

export interface PreviewResult {
  page_count: number;
  svg: string;
  render_ms: number;
  /** Catalogue paths the data left without a value (a real record's blanks). */
  unresolved_paths: string[];
}

export interface ProductionDocument {
  id: number;
  template_id: number;
  version_id: number;
  version_number: number;
  version_name: string;
  document_date: string;
  renderer_version: string;
  sha256: string;
  page_count: number;
  created_by: string;
  created_at: string;
}
