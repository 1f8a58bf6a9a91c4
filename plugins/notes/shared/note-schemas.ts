import { z } from 'zod';

/**
 * A note is written on one record of any module, named by (record type, record id): the notes
 * module keeps no reference into another module's tables, so a claim, policy, quote or contact gets
 * notes without either module knowing the other. Shared by the server (validation at the boundary)
 * and the web half (the same rules and messages in the form).
 */
export const NOTE_RECORD_TYPES = ['claim', 'policy', 'quote', 'contact'] as const;
export type NoteRecordType = (typeof NOTE_RECORD_TYPES)[number];

export const RECORD_TYPE_LABELS: Record<NoteRecordType, string> = {
  claim: 'Claim',
  policy: 'Policy',
  quote: 'Quote',
  contact: 'Contact',
};

export const NOTE_BODY_MAX = 10_000;
export const NOTE_MENTIONS_MAX = 20;
export const REQUIRED = 'This field is required.';

const username = z.string().trim().toLowerCase().min(1).max(320);

export const noteRecordSchema = z.strictObject({
  record_type: z.enum(NOTE_RECORD_TYPES),
  record_id: z.string().trim().min(1, REQUIRED).max(100),
});

export const noteCreateSchema = noteRecordSchema.extend({
  /** What the record is called on screen (CLM-1001, a contact's name), shown in the notes list. */
  record_label: z.string().trim().max(200).optional(),
  body: z.string().trim().min(1, REQUIRED).max(NOTE_BODY_MAX, `The note must be ${NOTE_BODY_MAX} characters or less.`),
  /** Users named on the note: they see it in their notes list. */
  mentions: z.array(username).max(NOTE_MENTIONS_MAX).default([]),
});

export const noteUpdateSchema = z.strictObject({
  body: noteCreateSchema.shape.body.optional(),
  mentions: z.array(username).max(NOTE_MENTIONS_MAX).optional(),
});

export const noteListQuerySchema = z.strictObject({
  record_type: z.enum(NOTE_RECORD_TYPES).optional(),
  record_id: z.string().trim().min(1).max(100).optional(),
  /** mine: notes I wrote or that name me (the global list); without it a record's notes. */
  scope: z.enum(['mine', 'written', 'mentioned']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});

export interface NoteUser {
  username: string;
  name: string;
}

export interface Note {
  id: number;
  record_type: NoteRecordType;
  record_id: string;
  record_label: string | null;
  body: string;
  author: NoteUser;
  mentions: NoteUser[];
  created_at: string;
  updated_at: string;
  /** The caller wrote it: only the author changes or deletes a note. */
  editable: boolean;
}

export interface NoteList {
  count: number;
  results: Note[];
}
