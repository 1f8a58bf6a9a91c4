import { Button, Group, MultiSelect, Stack, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApiClient } from '@atrium/sdk';
import { NOTE_BODY_MAX, REQUIRED } from '../../shared/note-schemas.js';
import { noteKeys, noteUsers, type NoteUser } from '../notes-api.js';

/**
 * Writing or changing a note: the text and the users it names. Reports whether it holds unsaved
 * text (`onDirtyChange`) so the activity sidebar can refuse to close over it.
 */
export function NoteForm({
  initialBody = '',
  initialMentions = [],
  submitLabel,
  onSubmit,
  onCancel,
  onDirtyChange,
}: {
  initialBody?: string;
  initialMentions?: NoteUser[];
  submitLabel: string;
  onSubmit(body: string, mentions: string[]): Promise<unknown>;
  onCancel?(): void;
  onDirtyChange?(dirty: boolean): void;
}) {
  const api = useApiClient();
  const [body, setBody] = useState(initialBody);
  const [mentions, setMentions] = useState<string[]>(initialMentions.map((m) => m.username));
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [known, setKnown] = useState<Map<string, string>>(
    () => new Map(initialMentions.map((m) => [m.username, m.name])),
  );
  const users = useQuery({
    queryKey: noteKeys.users(search.trim()),
    queryFn: ({ signal }) => noteUsers(api, search.trim(), signal),
    staleTime: 60_000,
  });
  useEffect(() => {
    if (!users.data) return;
    setKnown((previous) => {
      const next = new Map(previous);
      for (const u of users.data) next.set(u.username, u.name);
      return next;
    });
  }, [users.data]);

  const dirty = body !== initialBody || mentions.join() !== initialMentions.map((m) => m.username).join();
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const options = [...known.entries()].map(([value, label]) => ({ value, label }));

  async function submit() {
    if (!body.trim()) {
      setError(REQUIRED);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(body.trim(), mentions);
      setBody(initialBody);
      setMentions(initialMentions.map((m) => m.username));
    } catch {
      // The caller shows what went wrong; the text stays for another try.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Textarea
        label="Note"
        autosize
        minRows={3}
        maxLength={NOTE_BODY_MAX}
        value={body}
        error={error}
        onChange={(e) => {
          setBody(e.currentTarget.value);
          setError(null);
        }}
        onBlur={() => setError(body.trim() || !dirty ? null : REQUIRED)}
      />
      <MultiSelect
        label="Name users"
        description="They see the note in their notes list."
        placeholder={mentions.length ? undefined : 'Search users'}
        data={options}
        value={mentions}
        onChange={setMentions}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        nothingFoundMessage={users.isFetching ? 'Searching…' : 'No matching users found.'}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <Group justify="flex-end" gap="xs">
        {onCancel || dirty ? (
          <Button
            variant="default"
            onClick={() => {
              setBody(initialBody);
              setMentions(initialMentions.map((m) => m.username));
              setError(null);
              onCancel?.();
            }}
            disabled={busy}
          >
            Cancel
          </Button>
        ) : null}
        <Button onClick={submit} loading={busy}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
