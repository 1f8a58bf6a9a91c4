import { Button, Code, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { ACCESS_API, errorMessageOf, PAGE_SIZE, useAccessChanged, useAccessList, type Role } from '../access-api.js';
import { RoleFormModal } from '../components/role-form.js';
import { ConfirmDeleteButton, ErrorAlert, Pager, SortHeader } from '../components/shared.js';

/** Roles: create, rename (and set the classic role), delete; filter by name; pages of 15. */
export default function RolesPage() {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useAccessChanged();
  const canCreate = useCan('access:role', 'create').allowed;
  const canUpdate = useCan('access:role', 'update').allowed;
  const canDelete = useCan('access:role', 'delete').allowed;
  const [name, setName] = useState('');
  const [ordering, setOrdering] = useState('name');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const list = useAccessList<Role>('roles', { page, page_size: PAGE_SIZE, ordering, name: name.trim() || undefined });
  const roles = list.data?.results ?? [];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Roles</Title>
        {canCreate && <Button onClick={() => setEditing('new')}>New role</Button>}
      </Group>
      <TextInput
        label="Name"
        placeholder="Contains…"
        maw={320}
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setPage(1);
        }}
      />
      <ErrorAlert error={list.error} />
      <Table striped aria-label="Roles">
        <Table.Thead>
          <Table.Tr>
            <SortHeader field="name" ordering={ordering} onOrdering={setOrdering}>
              Name
            </SortHeader>
            <SortHeader field="gen2_role" ordering={ordering} onOrdering={setOrdering}>
              Classic role
            </SortHeader>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.map((role) => (
            <Table.Tr key={role.id}>
              <Table.Td>{role.name}</Table.Td>
              <Table.Td>{role.gen2_role ? <Code>{role.gen2_role}</Code> : '—'}</Table.Td>
              <Table.Td>
                <Group gap="xs">
                  {canUpdate && (
                    <Button
                      size="xs"
                      variant="subtle"
                      aria-label={`Rename ${role.name}`}
                      onClick={() => setEditing(role)}
                    >
                      Rename
                    </Button>
                  )}
                  {canDelete && (
                    <ConfirmDeleteButton
                      label="role"
                      ariaLabel={`Delete ${role.name}`}
                      onConfirm={async () => {
                        try {
                          await api.delete(`${ACCESS_API}/roles/${role.id}`);
                          services.showToast({ message: `Role '${role.name}' deleted.`, kind: 'success' });
                        } catch (error) {
                          services.showToast({ message: errorMessageOf(error), kind: 'error' });
                        }
                        await changed();
                      }}
                    />
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
          {!list.isPending && roles.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}>No roles found.</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Pager count={list.data?.count ?? 0} pageSize={PAGE_SIZE} page={page} onPage={setPage} />
      <RoleFormModal
        title={editing === 'new' ? 'New role' : 'Rename role'}
        opened={editing !== null}
        initial={
          editing && editing !== 'new'
            ? { name: editing.name, gen2_role: editing.gen2_role ?? '' }
            : { name: '', gen2_role: '' }
        }
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          if (editing === 'new') await api.post(`${ACCESS_API}/roles`, values);
          else if (editing) await api.patch(`${ACCESS_API}/roles/${editing.id}`, values);
          await changed();
          services.showToast({ message: `Role '${values.name}' saved.`, kind: 'success' });
        }}
      />
    </Stack>
  );
}
