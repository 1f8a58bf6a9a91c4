import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  errorMessage,
  formatDate,
  formatDateTime,
  PageHeader,
  QueryState,
  useApiClient,
  useCan,
} from '@atrium/sdk';
import { ROLE_LABELS } from '../../shared/contact-roles.js';
import {
  contactClaims,
  contactMergedInto,
  contactNotes,
  contactsById,
  findContact,
  type Contact,
} from '../contacts-api.js';
import { ActivityCard } from '../components/activity-card.js';
import { DuplicatesCard } from '../components/duplicates-card.js';
import { RelationsCard } from '../components/relations-card.js';
import { contactPageRoute } from '../routes.js';

const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  open: 'Open',
  closed: 'Closed',
  reopened: 'Reopened',
};
const PARTY_ROLE_LABELS: Record<string, string> = { ...ROLE_LABELS, insured: 'Insured', claimant: 'Claimant' };
const label = (map: Record<string, string>, value: string) =>
  map[value] ?? value.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {name}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

function Details({ contact }: { contact: Contact }) {
  const api = useApiClient();
  const agency = useQuery({
    queryKey: ['contacts', 'contact', contact.agency_id],
    enabled: Boolean(contact.agency_id),
    queryFn: () => contactsById(api, [contact.agency_id!]),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Details
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field name="Type">{contact.kind === 'organization' ? 'Organization' : 'Person'}</Field>
        {contact.kind === 'person' ? <Field name="Date of birth">{formatDate(contact.dob)}</Field> : null}
        {contact.kind === 'person' ? <Field name="SSN">{contact.has_ssn ? contact.ssn : '–'}</Field> : null}
        <Field name="E-mail">{contact.emails.length ? contact.emails.map((e) => e.address).join(', ') : '–'}</Field>
        <Field name="Phone">{contact.phones.length ? contact.phones.map((p) => p.number).join(', ') : '–'}</Field>
        <Field name="Website">
          {contact.website ? (
            <Anchor href={contact.website} target="_blank" rel="noreferrer">
              {contact.website}
            </Anchor>
          ) : (
            '–'
          )}
        </Field>
        {contact.agency_id ? (
          <Field name="Agency">
            {agency.data?.get(contact.agency_id) ? (
              <Anchor component={Link} to={contactPageRoute.link({ contactId: contact.agency_id })}>
                {agency.data.get(contact.agency_id)!.name}
              </Anchor>
            ) : (
              '–'
            )}
          </Field>
        ) : null}
      </SimpleGrid>
      <Title order={3} size="h5" mt="md" mb={4}>
        Addresses
      </Title>
      {contact.addresses.length === 0 ? (
        <Text size="sm">No address on file.</Text>
      ) : (
        contact.addresses.map((a, i) => (
          <Text size="sm" key={i}>
            {a.type ? <strong>{a.type}: </strong> : null}
            {[a.line1, a.line2, a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
          </Text>
        ))
      )}
    </Card>
  );
}

function Notes({ contactId }: { contactId: string }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canWrite = useCan('contacts:note', 'create');
  const notes = useQuery({ queryKey: ['contacts', 'notes', contactId], queryFn: () => contactNotes(api, contactId) });
  const [text, setText] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api.post(
        '/contacts/notes/',
        {
          data: {
            type: 'contact-note',
            attributes: { text },
            relationships: { contact: { data: { type: 'contact', id: contactId } } },
          },
        },
        { jsonApi: true },
      ),
    onSuccess: async () => {
      setText('');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['contacts', 'notes', contactId] }),
        queryClient.invalidateQueries({ queryKey: ['contacts', 'activity', contactId] }),
      ]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) add.mutate();
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Notes
      </Title>
      {canWrite.allowed ? (
        <form onSubmit={submit} aria-label="New note">
          <Stack gap="xs" mb="sm">
            <Textarea
              label="New note"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              autosize
              minRows={2}
            />
            {add.error ? <Text c="red">{errorMessage(add.error)}</Text> : null}
            <Button type="submit" size="xs" loading={add.isPending} style={{ alignSelf: 'flex-start' }}>
              Add note
            </Button>
          </Stack>
        </form>
      ) : null}
      <QueryState query={notes} empty={<Text size="sm">No notes.</Text>}>
        {(rows) => (
          <Stack gap="xs">
            {rows.map((n) => (
              <div key={n.id}>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {n.text}
                </Text>
                <Text size="xs" c="dimmed">
                  {n.created_by} · {formatDateTime(n.created_at)}
                </Text>
              </div>
            ))}
          </Stack>
        )}
      </QueryState>
    </Card>
  );
}

function Claims({ contactId }: { contactId: string }) {
  const api = useApiClient();
  const claims = useQuery({
    queryKey: ['contacts', 'claims', contactId],
    queryFn: () => contactClaims(api, contactId),
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Claims
      </Title>
      <QueryState query={claims} empty={<Text size="sm">This contact is a party to no claim you can see.</Text>}>
        {(rows) => (
          <DataTable label="Claims of this contact">
            <thead>
              <tr>
                <th>Claim</th>
                <th>Party role</th>
                <th>Status</th>
                <th>Date of loss</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={`${c.claimId}-${c.role}`}>
                  <td>
                    <Anchor component={Link} to={c.path}>
                      {c.number}
                    </Anchor>
                  </td>
                  <td>{label(PARTY_ROLE_LABELS, c.role)}</td>
                  <td>{label(STATUS_LABELS, c.status)}</td>
                  <td>{formatDate(c.dateOfLoss)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
    </Card>
  );
}

/** One contact: details, roles, addresses, relations, notes and the claims it is a party to. */
export default function ContactPage() {
  const { contactId = '' } = useParams();
  const api = useApiClient();
  const contact = useQuery({
    queryKey: ['contacts', 'contact-page', contactId],
    queryFn: () => findContact(api, contactId),
  });
  const canReadNotes = useCan('contacts:note', 'read');
  const canReadRelations = useCan('contacts:relation', 'read');
  const canReadClaims = useCan('claims:claim', 'read');
  const canMerge = useCan('contacts:contact', 'merge');
  // A contact merged into another answers 404; its page says where it went.
  const mergedInto = useQuery({
    queryKey: ['contacts', 'merged-into', contactId],
    enabled: Boolean(contact.error),
    queryFn: () => contactMergedInto(api, contactId),
  });
  if (contact.error) {
    const merge = mergedInto.data;
    return (
      <Stack>
        <PageHeader title="Contact" />
        {merge ? (
          <EmptyState
            title={`${merge.duplicate_name} was merged into another contact.`}
            description={
              <>
                {merge.merged_by} merged this contact on {formatDateTime(merge.merged_at)}. Open{' '}
                <Anchor component={Link} to={contactPageRoute.link({ contactId: merge.survivor_id })}>
                  {merge.survivor_name}
                </Anchor>
                .
              </>
            }
          />
        ) : mergedInto.isPending ? null : (
          <EmptyState title="Contact not found." description={errorMessage(contact.error)} />
        )}
      </Stack>
    );
  }
  return (
    <QueryState query={contact}>
      {(c) => (
        <Stack>
          <PageHeader title={c.name}>
            <Group gap={4}>
              {c.roles.map((r) => (
                <Badge key={r} variant="light">
                  {ROLE_LABELS[r] ?? r}
                </Badge>
              ))}
            </Group>
          </PageHeader>
          <Details contact={c} />
          {canReadClaims.allowed ? <Claims contactId={c.id} /> : null}
          {canMerge.allowed ? <DuplicatesCard contact={c} /> : null}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {canReadRelations.allowed ? <RelationsCard contactId={c.id} name={c.name} /> : null}
            {canReadNotes.allowed ? <Notes contactId={c.id} /> : null}
          </SimpleGrid>
          <ActivityCard contactId={c.id} />
        </Stack>
      )}
    </QueryState>
  );
}
