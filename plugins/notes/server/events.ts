import { defineEvent, z } from '@atrium/sdk/server';

/** What a note event carries: the record it is on, who wrote it and whom it names (not its text). */
const noteEventData = z.object({
  id: z.number(),
  record_type: z.string(),
  record_id: z.string(),
  author: z.string(),
  mentions: z.array(z.string()),
});

const event = (action: 'created' | 'updated' | 'deleted', description: string) =>
  defineEvent({ topic: `notes.note.${action}`, version: '1.0.0', description, data: noteEventData });

export const noteCreated = event('created', 'A note was written on a record.');
export const noteUpdated = event('updated', 'A note was changed (its text or the users it names).');
export const noteDeleted = event('deleted', 'A note was deleted.');
export const NOTES_EVENTS = [noteCreated, noteUpdated, noteDeleted];
