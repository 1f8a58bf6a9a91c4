import { Divider, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useMatches } from 'react-router-dom';
import { ErrorAlert, QueryState, useActivityPanel, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { RECORD_TYPE_LABELS } from '../../shared/note-schemas.js';
import { NoteCard } from '../components/note-card.js';
import { NoteForm } from '../components/note-form.js';
import { createNote, deleteNote, noteKeys, recordNotes, updateNote, type Note, type NoteRecord } from '../notes-api.js';
import { recordOfParams } from '../record-of-route.js';

/**
 * The activity sidebar's Notes panel: the notes on the record the page shows (claim, policy, quote,
 * contact) and a form to add one. While the form (or a note being edited) holds unsaved text the
 * panel reports it, and the host refuses to toggle the sidebar with the spec's warning.
 */
export default function NotesPanel() {
  const params = useMatches().at(-1)?.params ?? {};
  const found = recordOfParams(params);
  if (!found) {
    return (
      <Text size="sm" c="dimmed">
        Open a claim, policy, quote or contact to see its notes.
      </Text>
    );
  }
  return <RecordNotes key={`${found.type}:${found.id}`} record={{ ...found, label: found.id }} />;
}

function RecordNotes({ record }: { record: NoteRecord }) {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const { setUnsaved } = useActivityPanel();
  const canCreate = useCan('notes:note', 'create');
  const canDelete = useCan('notes:note', 'delete');
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const dirtyForms = useState(() => new Set<string>())[0];
  const notes = useQuery({
    queryKey: noteKeys.record(record),
    queryFn: ({ signal }) => recordNotes(api, record, signal),
  });

  // Two forms may be open (a new note and one being edited): unsaved while either holds changes.
  const reportDirty = useCallback(
    (form: string) => (dirty: boolean) => {
      if (dirty) dirtyForms.add(form);
      else dirtyForms.delete(form);
      setUnsaved(dirtyForms.size > 0);
    },
    [dirtyForms, setUnsaved],
  );
  const newFormDirty = useMemo(() => reportDirty('new'), [reportDirty]);
  const editDirty = useMemo(() => reportDirty('edit'), [reportDirty]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: noteKeys.all });
  const run = async (action: () => Promise<unknown>, message: string) => {
    setProblem(null);
    try {
      await action();
      await refresh();
      showToast({ message, kind: 'success' });
    } catch (error) {
      setProblem(error);
      throw error;
    }
  };

  const label = RECORD_TYPE_LABELS[record.type];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {label} {record.id}
      </Text>
      {problem ? <ErrorAlert error={problem} /> : null}
      {canCreate.allowed ? (
        <NoteForm
          submitLabel="Save note"
          onDirtyChange={newFormDirty}
          onSubmit={(body, mentions) => run(() => createNote(api, record, body, mentions), 'Note saved.')}
        />
      ) : null}
      <Divider />
      <QueryState
        query={notes}
        isEmpty={(d) => d.results.length === 0}
        empty={
          <Text size="sm" c="dimmed">
            No notes on this {label.toLowerCase()} yet.
          </Text>
        }
      >
        {(list) => (
          <Stack gap="xs">
            {list.results.map((note: Note) =>
              editing === note.id ? (
                <NoteForm
                  key={note.id}
                  submitLabel="Save changes"
                  initialBody={note.body}
                  initialMentions={note.mentions}
                  onDirtyChange={editDirty}
                  onCancel={() => {
                    editDirty(false);
                    setEditing(null);
                  }}
                  onSubmit={async (body, mentions) => {
                    await run(() => updateNote(api, note.id, body, mentions), 'Note updated.');
                    editDirty(false);
                    setEditing(null);
                  }}
                />
              ) : (
                <NoteCard
                  key={note.id}
                  note={note}
                  onEdit={() => setEditing(note.id)}
                  onDelete={
                    canDelete.allowed
                      ? () => run(() => deleteNote(api, note.id), 'Note deleted.').catch(() => undefined)
                      : undefined
                  }
                />
              ),
            )}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
