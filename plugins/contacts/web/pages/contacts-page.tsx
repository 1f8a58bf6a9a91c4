import { Anchor, Badge, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, EmptyState, PageHeader, QueryState, useApiClient } from '@atrium/sdk';
import { ROLE_LABELS } from '../../shared/contact-roles.js';
import { contactsPage, searchContacts, type Contact } from '../contacts-api.js';
import { contactPageRoute } from '../routes.js';

const PAGE_SIZE = 25;

/** The contact search: every contact the caller may read, by name, or those matching the text typed. */
export default function ContactsPage() {
  const api = useApiClient();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({
    queryKey: ['contacts', 'search', query],
    queryFn: async ({ signal }) =>
      query.length > 0 ? searchContacts(api, query, PAGE_SIZE, signal) : (await contactsPage(api, 1, PAGE_SIZE)).items,
  });
  return (
    <Stack>
      <PageHeader
        title="Contacts"
        description="People and organisations: insureds, claimants, agents, agencies, vendors."
      />
      <TextInput
        label="Search contacts"
        placeholder="Name, e-mail or phone"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={420}
      />
      <QueryState
        query={list}
        empty={<EmptyState title={query ? 'No matching contacts found.' : 'No contacts yet.'} />}
      >
        {(rows) => (
          <DataTable label="Contacts">
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Roles</th>
                <th>E-mail</th>
                <th>Phone</th>
                <th>City</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c: Contact) => (
                <tr key={c.id}>
                  <td>
                    <Anchor component={Link} to={contactPageRoute.link({ contactId: c.id })}>
                      {c.name}
                    </Anchor>
                  </td>
                  <td>{c.kind === 'organization' ? 'Organization' : 'Person'}</td>
                  <td>
                    <Group gap={4}>
                      {c.roles.map((r) => (
                        <Badge key={r} variant="light" size="sm">
                          {ROLE_LABELS[r] ?? r}
                        </Badge>
                      ))}
                    </Group>
                  </td>
                  <td>{c.emails[0]?.address ?? '–'}</td>
                  <td>{c.phones[0]?.number ?? '–'}</td>
                  <td>
                    <Text size="sm">
                      {c.addresses[0] ? [c.addresses[0].city, c.addresses[0].state].filter(Boolean).join(', ') : '–'}
                    </Text>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
    </Stack>
  );
}
