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
  contactNotes,
  contactRelations,
  contactsById,
  findContact,
  type Contact,
} from '../contacts-api.js';
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

function Relations({ contactId, name }: { contactId: string; name: string }) {
  const api = useApiClient();
  const relations = useQuery({
    queryKey: ['contacts', 'relations', contactId],
    queryFn: async () => {
      const rows = await contactRelations(api, contactId);
      const others = await contactsById(
        api,
        rows.map((r) => (r.contact_id === contactId ? r.related_contact_id : r.contact_id)),
      );
      return rows.flatMap((r) => {
        const other = others.get(r.contact_id === contactId ? r.related_contact_id : r.contact_id);
        return other ? [{ id: r.id, relation: r.relation, other, outgoing: r.contact_id === contactId }] : [];
      });
    },
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Relations
      </Title>
      <QueryState query={relations} empty={<Text size="sm">No relations.</Text>}>
        {(rows) => (
          <Stack gap={4}>
            {rows.map((r) => (
              <Text size="sm" key={r.id}>
                {/* Read as a sentence both ways: "Alex Agent · Agent of · Harbour Agency". */}
                {r.outgoing ? `${name} · ${r.relation} · ` : null}
                <Anchor component={Link} to={contactPageRoute.link({ contactId: r.other.id })}>
                  {r.other.name}
                </Anchor>
                {r.outgoing ? null : ` · ${r.relation} · ${name}`}
              </Text>
            ))}
          </Stack>
        )}
      </QueryState>
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
      api.post('/contacts/notes/', {
        jsonApi: true,
        body: {
          data: {
            type: 'contact-note',
            attributes: { text },
            relationships: { contact: { data: { type: 'contact', id: contactId } } },
          },
        },
      }),
    onSuccess: async () => {
      setText('');
      await queryClient.invalidateQueries({ queryKey: ['contacts', 'notes', contactId] });
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
  if (contact.error) {
    return (
      <Stack>
        <PageHeader title="Contact" />
        <EmptyState title="Contact not found." description={errorMessage(contact.error)} />
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
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {canReadRelations.allowed ? <Relations contactId={c.id} name={c.name} /> : null}
            {canReadNotes.allowed ? <Notes contactId={c.id} /> : null}
          </SimpleGrid>
        </Stack>
      )}
    </QueryState>
  );
}
