import { Anchor, Autocomplete, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmButton, errorMessage, QueryState, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { addRelation, contactRelations, contactsById, removeRelation, searchContacts } from '../contacts-api.js';
import { contactPageRoute } from '../routes.js';

/** Relations people name most; any other wording may be typed. */
const RELATIONS = [
  'Spouse',
  'Household member',
  'Parent',
  'Child',
  'Employer',
  'Employee',
  'Agent of',
  'Attorney for',
  'Lienholder of',
];

/**
 * A contact's relations, read as sentences both ways ("Alex Agent · Agent of · Harbour Agency"), with
 * an editor for those who may relate contacts (contacts:relation create / delete, as the server checks).
 */
export function RelationsCard({ contactId, name }: { contactId: string; name: string }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canCreate = useCan('contacts:relation', 'create').allowed;
  const canDelete = useCan('contacts:relation', 'delete').allowed;
  const key = ['contacts', 'relations', contactId];
  // The activity card lists relation changes too.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: ['contacts', 'activity', contactId] }),
    ]);
  const relations = useQuery({
    queryKey: key,
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

  const [relation, setRelation] = useState('');
  const [search, setSearch] = useState('');
  const [relatedId, setRelatedId] = useState<string | null>(null);
  const candidates = useQuery({
    queryKey: ['contacts', 'relation-candidates', search],
    enabled: canCreate && search.trim().length >= 2,
    queryFn: ({ signal }) => searchContacts(api, search, 10, signal),
  });
  const add = useMutation({
    mutationFn: () => addRelation(api, contactId, relatedId!, relation.trim()),
    onSuccess: async () => {
      services.showToast({ message: 'Relation added.', kind: 'success' });
      setRelation('');
      setSearch('');
      setRelatedId(null);
      await refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (relation.trim() && relatedId) add.mutate();
  };

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Relations
      </Title>
      <QueryState query={relations} empty={<Text size="sm">No relations.</Text>}>
        {(rows) => (
          <Stack gap={4}>
            {rows.map((r) => (
              <Group key={r.id} gap="xs" justify="space-between" wrap="nowrap">
                <Text size="sm">
                  {r.outgoing ? `${name} · ${r.relation} · ` : null}
                  <Anchor component={Link} to={contactPageRoute.link({ contactId: r.other.id })}>
                    {r.other.name}
                  </Anchor>
                  {r.outgoing ? null : ` · ${r.relation} · ${name}`}
                </Text>
                {canDelete ? (
                  <ConfirmButton
                    label="relation"
                    verb="remove"
                    color="red"
                    variant="subtle"
                    size="xs"
                    ariaLabel={`Remove relation to ${r.other.name}`}
                    onConfirm={async () => {
                      try {
                        await removeRelation(api, r.id);
                        services.showToast({ message: 'Relation removed.', kind: 'success' });
                      } catch (error) {
                        services.showToast({ message: errorMessage(error), kind: 'error' });
                      }
                      await refresh();
                    }}
                  >
                    Remove
                  </ConfirmButton>
                ) : null}
              </Group>
            ))}
          </Stack>
        )}
      </QueryState>
      {canCreate ? (
        <form onSubmit={submit} aria-label="New relation">
          <Stack gap="xs" mt="md">
            <Autocomplete
              label={`${name} is …`}
              placeholder="Spouse, Employer, Agent of …"
              data={RELATIONS}
              value={relation}
              onChange={setRelation}
              maxLength={100}
            />
            <Select
              label="… of contact"
              placeholder="Type two letters of a name"
              searchable
              clearable
              searchValue={search}
              onSearchChange={setSearch}
              value={relatedId}
              onChange={setRelatedId}
              nothingFoundMessage={search.trim().length >= 2 ? 'No contact found.' : 'Type two letters of a name.'}
              data={(candidates.data ?? [])
                .filter((c) => c.id !== contactId)
                .map((c) => ({ value: c.id, label: c.name }))}
              filter={({ options }) => options}
            />
            {add.error ? <Text c="red">{errorMessage(add.error)}</Text> : null}
            <Button
              type="submit"
              size="xs"
              loading={add.isPending}
              disabled={!relation.trim() || !relatedId}
              style={{ alignSelf: 'flex-start' }}
            >
              Add relation
            </Button>
          </Stack>
        </form>
      ) : null}
    </Card>
  );
}
