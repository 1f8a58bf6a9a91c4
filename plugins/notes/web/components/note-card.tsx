import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ConfirmButton, formatDateTime } from '@atrium/sdk';
import type { ReactNode } from 'react';
import type { Note } from '../notes-api.js';

/** One note: who wrote it and when, its text, the users it names, and the author's actions. */
export function NoteCard({
  note,
  heading,
  onEdit,
  onDelete,
}: {
  note: Note;
  heading?: ReactNode;
  onEdit?(): void;
  onDelete?(): Promise<unknown>;
}) {
  const edited = note.updated_at !== note.created_at;
  return (
    <Paper withBorder p="sm" radius="sm" component="article" aria-label={`Note by ${note.author.name}`}>
      <Stack gap={6}>
        {heading}
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" fw={600}>
            {note.author.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(note.created_at)}
            {edited ? ' (edited)' : ''}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {note.body}
        </Text>
        {note.mentions.length > 0 ? (
          <Group gap={4} aria-label="Users named">
            {note.mentions.map((m) => (
              <Badge key={m.username} variant="light" size="sm" tt="none">
                @{m.name}
              </Badge>
            ))}
          </Group>
        ) : null}
        {note.editable && (onEdit || onDelete) ? (
          <Group gap="xs" justify="flex-end">
            {onEdit ? (
              <Button size="xs" variant="subtle" onClick={onEdit}>
                Edit
              </Button>
            ) : null}
            {onDelete ? (
              <ConfirmButton label="note" verb="delete" color="red" size="xs" variant="subtle" onConfirm={onDelete}>
                Delete
              </ConfirmButton>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
