import { Anchor, Badge, Group, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, PageHeader, QueryState, useApiClient, useSession } from '@atrium/sdk';
import { RECORD_TYPE_LABELS, type NoteRecordType } from '../../shared/note-schemas.js';
import { NoteCard } from '../components/note-card.js';
import { myNotes, noteKeys, type Note } from '../notes-api.js';

type Scope = 'mine' | 'written' | 'mentioned';
const PAGE_SIZE = 25;
const PAGE_CONTROL_NAMES = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** Where a note's record opens; only for the record pages that exist today. */
function recordHref(type: NoteRecordType, id: string): string | null {
  const encoded = encodeURIComponent(id);
  if (type === 'claim') return `/claims/${encoded}/details`;
  if (type === 'contact') return `/contacts/${encoded}`;
  return null;
}

function RecordHeading({ note }: { note: Note }) {
  const label = `${RECORD_TYPE_LABELS[note.record_type]} ${note.record_label || note.record_id}`;
  const href = recordHref(note.record_type, note.record_id);
  return (
    <Group gap="xs">
      <Badge variant="outline" size="sm" tt="none">
        {RECORD_TYPE_LABELS[note.record_type]}
      </Badge>
      {href ? (
        <Anchor component={Link} to={href} size="sm" fw={600}>
          {label}
        </Anchor>
      ) : (
        <Text size="sm" fw={600}>
          {label}
        </Text>
      )}
    </Group>
  );
}

/** The notes list (notes:global-list): notes the user wrote and notes that name them, newest first. */
export default function NotesPage() {
  const api = useApiClient();
  const { user } = useSession();
  const [scope, setScope] = useState<Scope>('mine');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...noteKeys.list(scope, page), user?.username],
    queryFn: ({ signal }) => myNotes(api, scope, page, signal),
  });
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / PAGE_SIZE));
  return (
    <Stack>
      <PageHeader
        title="Notes"
        description="Notes you wrote on claims, policies, quotes and contacts, and notes that name you."
      />
      <SegmentedControl
        aria-label="Which notes"
        value={scope}
        onChange={(value) => {
          setScope(value as Scope);
          setPage(1);
        }}
        data={[
          { value: 'mine', label: 'All my notes' },
          { value: 'written', label: 'Written by me' },
          { value: 'mentioned', label: 'Naming me' },
        ]}
        maw={460}
      />
      <QueryState
        query={list}
        isEmpty={(d) => d.results.length === 0}
        empty={
          <EmptyState
            title="No notes yet."
            description="Write notes in the Notes panel of the activity sidebar on a claim or a contact."
          />
        }
      >
        {(data) => (
          <Stack gap="sm" maw={820}>
            {data.results.map((note) => (
              <NoteCard key={note.id} note={note} heading={<RecordHeading note={note} />} />
            ))}
            {pages > 1 ? (
              <Group component="nav" aria-label="Pages">
                <Pagination
                  total={pages}
                  value={page}
                  onChange={setPage}
                  getControlProps={(control) => ({ 'aria-label': PAGE_CONTROL_NAMES[control] })}
                />
              </Group>
            ) : null}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
