import type { ApiClient } from '@atrium/sdk';
import type { Note, NoteList, NoteRecordType, NoteUser } from '../shared/note-schemas.js';

export type { Note, NoteList, NoteRecordType, NoteUser };

export interface NoteRecord {
  type: NoteRecordType;
  id: string;
  label?: string;
}

export const noteKeys = {
  all: ['notes'] as const,
  record: (record: NoteRecord) => ['notes', 'record', record.type, record.id] as const,
  list: (scope: string, page: number) => ['notes', 'list', scope, page] as const,
  users: (search: string) => ['notes', 'users', search] as const,
};

export const recordNotes = (api: ApiClient, record: NoteRecord, signal?: AbortSignal) =>
  api.get<NoteList>('/notes/notes/', {
    query: { record_type: record.type, record_id: record.id, page_size: 100 },
    signal,
  });

export const myNotes = (api: ApiClient, scope: 'mine' | 'written' | 'mentioned', page: number, signal?: AbortSignal) =>
  api.get<NoteList>('/notes/notes/', { query: { scope, page, page_size: 25 }, signal });

export const createNote = (api: ApiClient, record: NoteRecord, body: string, mentions: string[]) =>
  api.post<Note>('/notes/notes/', {
    record_type: record.type,
    record_id: record.id,
    ...(record.label ? { record_label: record.label } : {}),
    body,
    mentions,
  });

export const updateNote = (api: ApiClient, id: number, body: string, mentions: string[]) =>
  api.patch<Note>(`/notes/notes/${id}/`, { body, mentions });

export const deleteNote = (api: ApiClient, id: number) => api.delete(`/notes/notes/${id}/`);

export const noteUsers = (api: ApiClient, search: string, signal?: AbortSignal) =>
  api.get<NoteUser[]>('/notes/notes/users/', { query: { search }, signal });
