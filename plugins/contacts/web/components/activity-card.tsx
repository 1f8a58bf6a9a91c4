import { Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, QueryState, useApiClient } from '@atrium/sdk';
import { contactActivity, type ContactActivity } from '../contacts-api.js';

/** What each audited action reads as; the store audits these (contact-store.ts, contact-merge.ts). */
const CONTACT_ACTIONS: Record<string, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  merge: 'A duplicate was merged into this contact',
  merged: 'A duplicate of this contact was merged in',
  'read-ssn': 'SSN viewed in full',
};
const CHILD_ACTIONS: Record<string, string> = { create: 'added', update: 'changed', delete: 'removed' };
const CHILDREN: Record<string, string> = { 'contact-note': 'Note', 'contact-relation': 'Relation' };

function sentence(entry: ContactActivity): string {
  if (entry.entity_type === 'contact') return CONTACT_ACTIONS[entry.action] ?? 'Changed';
  return `${CHILDREN[entry.entity_type] ?? 'Detail'} ${CHILD_ACTIONS[entry.action] ?? 'changed'}`;
}

/** Who did what to the contact and when, newest first (the store's audit trail). */
export function ActivityCard({ contactId }: { contactId: string }) {
  const api = useApiClient();
  const activity = useQuery({
    queryKey: ['contacts', 'activity', contactId],
    queryFn: () => contactActivity(api, contactId),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Activity
      </Title>
      <QueryState query={activity} empty={<Text size="sm">Nothing recorded yet.</Text>}>
        {(rows) => (
          <Stack gap={6}>
            {rows.map((e, i) => (
              <div key={`${e.at}-${i}`}>
                <Text size="sm">{sentence(e)}</Text>
                <Text size="xs" c="dimmed">
                  {e.username} · {formatDateTime(e.at)}
                </Text>
              </div>
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}
