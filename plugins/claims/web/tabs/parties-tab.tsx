import { Anchor, Button, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorAlert, useApiClient, useCan, useHostServices, paginationControlProps } from '@atrium/sdk';
import { claimsKeys, useClaimCollection, type Claim } from '../api/claims-api.js';
import { contactKeys, useContactSearch, type ContactFilters } from '../api/contacts-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { ContactDetails } from '../components/contact-details.js';
import { ContactForm } from '../components/contact-form.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { documentOf, RecordDialog, saveRecord, type FieldSpec } from '../components/record-dialog.js';
import { SimpleList } from './simple-list.js';

/** Searches wait for typing to pause (spec: debounce 250 ms). */
const SEARCH_DEBOUNCE_MS = 250;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const cityOf = (contact: Flat) => {
  const first = ((contact.addresses as Record<string, unknown>[] | undefined) ?? [])[0];
  return first ? [first.city, first.state].filter(Boolean).map(text).join(', ') : '';
};

/** The contacts directory: search by name, e-mail, phone (the server's filters), 10 a page. */
function ContactSearch({ onOpen }: { onOpen(id: string): void }) {
  const [filters, setFilters] = useState<ContactFilters>({ name: '', email: '', phone: '' });
  const debounced = useDebounced(filters, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const search = useContactSearch(debounced, page);
  const set = (patch: Partial<ContactFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const contacts = search.data?.contacts ?? [];
  return (
    <Stack gap="xs">
      <Group grow>
        <TextInput label="Contact name" value={filters.name} onChange={(e) => set({ name: e.currentTarget.value })} />
        <TextInput
          label="Contact email"
          description="3 characters or more"
          value={filters.email}
          onChange={(e) => set({ email: e.currentTarget.value })}
        />
        <TextInput
          label="Contact phone"
          value={filters.phone}
          onChange={(e) => set({ phone: e.currentTarget.value })}
        />
      </Group>
      <ErrorAlert error={search.error} />
      {search.isPending ? <Text>Searching contacts…</Text> : null}
      {search.data && contacts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No matching contacts found.
        </Text>
      ) : null}
      {contacts.length > 0 ? (
        <Table aria-label="Contacts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Phone</Table.Th>
              <Table.Th>City</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contacts.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => onOpen(c.id)}>
                    {text(c.name)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{text(c.email)}</Table.Td>
                <Table.Td>{text(c.phone)}</Table.Td>
                <Table.Td>{cityOf(c)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {(search.data?.pages ?? 1) > 1 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {search.data?.count} contacts
          </Text>
          <Pagination
            getControlProps={paginationControlProps}
            total={search.data?.pages ?? 1}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      ) : null}
    </Stack>
  );
}

const PARTY_ROLES = [
  { value: 'insured', label: 'Insured' },
  { value: 'claimant', label: 'Claimant' },
  { value: 'witness', label: 'Witness' },
  { value: 'vendor', label: 'Vendor' },
];
const roleLabel = (role: unknown) => PARTY_ROLES.find((r) => r.value === text(role))?.label ?? text(role);

const PARTY_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'role', label: 'Role', kind: 'select', required: true, options: PARTY_ROLES },
  { name: 'phone', label: 'Phone', nullable: true },
  { name: 'email', label: 'Email', nullable: true },
  { name: 'is_involved', label: 'Involved in the loss', kind: 'checkbox' },
  { name: 'is_approved_vendor', label: 'Approved vendor', kind: 'checkbox' },
];

/** Add a party to the claim (numbered after the others) or edit one. */
function PartyDialog({
  claim,
  party,
  parties,
  onClose,
}: {
  claim: Claim;
  party: Flat | null;
  parties: Flat[];
  onClose(): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  return (
    <RecordDialog
      title={party ? `Edit party ${text(party.name)}` : 'Add party'}
      submitLabel={party ? 'Save' : 'Add party'}
      opened
      fields={PARTY_FIELDS}
      initial={{
        name: text(party?.name),
        role: text(party?.role),
        phone: text(party?.phone),
        email: text(party?.email),
        is_involved: party?.is_involved === true,
        is_approved_vendor: party?.is_approved_vendor === true,
      }}
      onClose={onClose}
      onSubmit={async (values) => {
        const body = documentOf('party', PARTY_FIELDS, values, party?.id);
        if (!party) {
          const next = Math.max(0, ...parties.map((p) => Number(p.display_number) || 0)) + 1;
          (body.data.attributes as Record<string, unknown>).display_number = next;
          (body.data as { relationships?: Record<string, unknown> }).relationships = {
            claim: { data: { type: 'claim', id: claim.id } },
          };
        }
        const saved = await saveRecord(api, PATHS.parties, body, { id: party?.id });
        await queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claim.id) });
        services.showToast({ kind: 'success', message: `Party ${text(saved.name)} was ${party ? 'saved' : 'added'}.` });
        onClose();
      }}
    />
  );
}

/**
 * claims:parties — everyone involved in the claim (insureds, claimants, witnesses, vendors), and
 * the contacts directory: search, open a contact (details, notes, relations, edit), create one,
 * and add a contact to the claim as a party.
 */
export function PartiesTab({ claim }: { claim: Claim }) {
  const services = useHostServices();
  const queryClient = useQueryClient();
  const parties = useClaimCollection(PATHS.parties, claim.id);
  const canCreateContact = useCan('claims:contact', 'create');
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const canCreateParty = useCan('claims:party', 'create');
  const [editingParty, setEditingParty] = useState<Flat | 'new' | null>(null);
  const mayEdit = canUpdate.allowed && canCreateParty.allowed && claim.status !== 'closed';
  const [openContact, setOpenContact] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <SimpleList
        label="Parties"
        query={parties}
        actions={
          mayEdit ? (
            <Button variant="light" onClick={() => setEditingParty('new')}>
              Add party
            </Button>
          ) : null
        }
        columns={[
          ['Number', (p) => text(p.display_number)],
          [
            'Name',
            (p) =>
              p.contact_id ? (
                <Anchor component="button" type="button" onClick={() => setOpenContact(text(p.contact_id))}>
                  {text(p.name)}
                </Anchor>
              ) : (
                text(p.name)
              ),
          ],
          ['Phone', (p) => text(p.phone)],
          ['Email', (p) => text(p.email)],
          ['Role', (p) => roleLabel(p.role)],
          ['Involved', (p) => (p.is_involved ? 'Yes' : '')],
          ['Approved vendor', (p) => (p.is_approved_vendor ? 'Yes' : '')],
          [
            '',
            (p) =>
              mayEdit ? (
                <Button
                  size="xs"
                  variant="subtle"
                  aria-label={`Edit ${text(p.name)}`}
                  onClick={() => setEditingParty(p)}
                >
                  Edit
                </Button>
              ) : null,
          ],
        ]}
      />
      {editingParty ? (
        <PartyDialog
          claim={claim}
          party={editingParty === 'new' ? null : editingParty}
          parties={parties.data?.items ?? []}
          onClose={() => setEditingParty(null)}
        />
      ) : null}
      <Group justify="space-between">
        <Title order={4}>Contacts</Title>
        {canCreateContact.allowed ? (
          <Button variant="light" onClick={() => setCreating(true)}>
            New contact
          </Button>
        ) : null}
      </Group>
      <ContactSearch onOpen={setOpenContact} />
      {creating ? (
        <ContactForm
          contact={null}
          opened
          onClose={() => setCreating(false)}
          onSaved={(saved) => {
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: contactKeys.all });
            services.showToast({ kind: 'success', message: `Contact ${text(saved.name)} was created.` });
            setOpenContact(saved.id);
          }}
        />
      ) : null}
      {openContact ? (
        <ContactDetails
          contactId={openContact}
          claimId={claim.id}
          parties={parties.data?.items ?? []}
          onClose={() => setOpenContact(null)}
        />
      ) : null}
    </Stack>
  );
}
