import { Alert, Button, Drawer, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { claimsKeys } from '../api/claims-api.js';
import {
  addContactAsParty,
  contactKeys,
  useContact,
  useContactNotes,
  useContactRelations,
  useGenders,
  usePartyRoles,
} from '../api/contacts-api.js';
import { errorMessageOf, text, type Flat } from '../api/jsonapi.js';
import { ContactForm } from './contact-form.js';

function Field({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{text(value) || '—'}</Text>
    </div>
  );
}

const addressLine = (a: Record<string, unknown>) =>
  [a.type ? `${text(a.type)}:` : '', a.line1, a.line2, a.city, a.state, a.zip].filter(Boolean).map(text).join(' ');

/**
 * One contact, opened from the Parties tab: details, addresses, notes (newest first) and relations,
 * Edit (PUT), and — when the claim does not have this contact yet — Add to claim as a party in a
 * chosen role.
 */
export function ContactDetails({
  contactId,
  claimId,
  parties,
  onClose,
}: {
  contactId: string;
  claimId: string;
  /** The claim's parties (to number the new one and to see whether the contact is already one). */
  parties: Flat[];
  onClose(): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const contact = useContact(contactId);
  const notes = useContactNotes(contactId);
  const relations = useContactRelations(contactId);
  const genders = useGenders();
  const roles = usePartyRoles();
  const canEdit = useCan('claims:contact', 'update');
  const canAddParty = useCan('claims:party', 'create');
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState<string | null>('claimant');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const c = contact.data;
  const party = parties.find((p) => text(p.contact_id) === contactId);
  const gender = genders.data?.find((g) => g.id === text(c?.gender_id));
  const addresses = ((c?.addresses as Record<string, unknown>[] | undefined) ?? []).map(addressLine);

  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={c ? `Contact ${text(c.name)}` : 'Contact'}>
      <Stack>
        <ErrorAlert error={contact.error} />
        {contact.isPending ? <Text>Loading contact…</Text> : null}
        {c ? (
          <>
            <SimpleGrid cols={2}>
              <Field label="Name" value={c.name} />
              <Field label="Kind" value={c.kind} />
              <Field label="Email" value={c.email} />
              <Field label="Phone" value={c.phone} />
              <Field label="Date of birth" value={text(c.dob).slice(0, 10)} />
              <Field label="Gender" value={gender ? text(gender.label) || text(gender.name) : ''} />
              {/* Masked (***-**-1234) unless the server answered it in full to someone who may read SSNs. */}
              <Field label="SSN" value={c.has_ssn ? text(c.ssn) || `***-**-${text(c.ssn_last4)}` : ''} />
            </SimpleGrid>
            <Field label="Addresses" value={addresses.join('; ')} />
            <Group>
              {canEdit.allowed ? (
                <Button variant="light" onClick={() => setEditing(true)}>
                  Edit contact
                </Button>
              ) : null}
            </Group>

            <Title order={5}>Claim party</Title>
            {party ? (
              <Text size="sm">
                Party {text(party.display_number)} on this claim ({text(party.role)}).
              </Text>
            ) : canAddParty.allowed ? (
              <Group align="flex-end">
                <Select
                  label="Role"
                  size="xs"
                  data={(roles.data ?? []).map((r) => ({ value: text(r.name), label: text(r.label) || text(r.name) }))}
                  value={role}
                  onChange={setRole}
                />
                <Button
                  size="xs"
                  loading={busy}
                  disabled={!role}
                  onClick={async () => {
                    setBusy(true);
                    setError(null);
                    try {
                      const added = await addContactAsParty(api, claimId, c, role!, parties);
                      await queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claimId) });
                      services.showToast({
                        kind: 'success',
                        message: `${text(c.name)} was added as party ${text(added.display_number)}.`,
                      });
                    } catch (e) {
                      setError(new Error(errorMessageOf(e)));
                    } finally {
                      setBusy(false);
                    }
                  }}
                >
                  Add to claim
                </Button>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                Not a party of this claim.
              </Text>
            )}
            <ErrorAlert error={error} />

            <Title order={5}>Notes</Title>
            <ErrorAlert error={notes.error} />
            {(notes.data ?? []).length === 0 ? (
              <Text size="sm" c="dimmed">
                No notes.
              </Text>
            ) : (
              <Stack gap="xs" aria-label="Contact notes">
                {(notes.data ?? []).map((n) => (
                  <Alert
                    key={n.id}
                    variant="light"
                    color="gray"
                    title={`${text(n.created_by)} · ${text(n.created_at).slice(0, 10)}`}
                  >
                    {text(n.text)}
                  </Alert>
                ))}
              </Stack>
            )}

            <Title order={5}>Relations</Title>
            <ErrorAlert error={relations.error} />
            {(relations.data ?? []).length === 0 ? (
              <Text size="sm" c="dimmed">
                No relations.
              </Text>
            ) : (
              <Table aria-label="Contact relations">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Relation</Table.Th>
                    <Table.Th>Contact</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {(relations.data ?? []).map((r) => {
                    const other = text(r.contact_id) === contactId ? 'related_contact' : 'contact';
                    return (
                      <Table.Tr key={r.id}>
                        <Table.Td>{text(r.relation)}</Table.Td>
                        <Table.Td>{text(r[`${other}_name`]) || text(r[`${other}_id`])}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
          </>
        ) : null}
      </Stack>
      {editing && c ? (
        <ContactForm
          contact={c}
          opened
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            queryClient.setQueryData(contactKeys.one(saved.id), saved);
            void queryClient.invalidateQueries({ queryKey: contactKeys.all });
            services.showToast({ kind: 'success', message: `Contact ${text(saved.name)} was saved.` });
          }}
        />
      ) : null}
    </Drawer>
  );
}
