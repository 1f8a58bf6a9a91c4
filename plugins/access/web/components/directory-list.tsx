import { Badge, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ALL, useAccessList, type Role } from '../access-api.js';
import { ErrorAlert, Pager, SortHeader } from './shared.js';

/** Read-only: the users or groups that hold roles here, each with its roles. */
export function DirectoryList({
  title,
  resource,
  keyField,
  keyLabel,
  pageSize,
}: {
  title: string;
  resource: 'users' | 'groups';
  keyField: 'username' | 'name';
  keyLabel: string;
  pageSize: number;
}) {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [ordering, setOrdering] = useState<string>(keyField);
  const [page, setPage] = useState(1);
  const roles = useAccessList<Role>('roles', { page_size: ALL, ordering: 'name' });
  const list = useAccessList<{ username?: string; name?: string; roles: string[] }>(resource, {
    page,
    page_size: pageSize,
    ordering,
    [keyField]: search.trim() || undefined,
    role: role ?? undefined,
  });
  const rows = list.data?.results ?? [];
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Group>
        <TextInput
          label={keyLabel}
          placeholder="Contains…"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label="Role"
          placeholder="Any"
          clearable
          searchable
          data={(roles.data?.results ?? []).map((r) => r.name)}
          value={role}
          onChange={(value) => {
            setRole(value);
            setPage(1);
          }}
        />
      </Group>
      <ErrorAlert error={list.error} />
      <Table striped aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <SortHeader field={keyField} ordering={ordering} onOrdering={setOrdering}>
              {keyLabel}
            </SortHeader>
            <Table.Th>Roles</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const key = row[keyField] ?? '';
            return (
              <Table.Tr key={key}>
                <Table.Td>{key}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {row.roles.map((name) => (
                      <Badge key={name} variant="light">
                        {name}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
          {!list.isPending && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={2}>Nothing found.</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Pager count={list.data?.count ?? 0} pageSize={pageSize} page={page} onPage={setPage} />
    </Stack>
  );
}
