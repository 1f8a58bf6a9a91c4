import { Anchor, Button, Checkbox, Group, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiClient, useCan, useHostServices, paginationControlProps } from '@atrium/sdk';
import {
  BatchFailureModal,
  ConfirmButton,
  ErrorAlert,
  UsersAreaGate,
  type BatchFailure,
} from '../components/shared.js';
import { usersAdminSettingsRoute, usersEditRoute, usersManageRoute } from '../routes.js';
import {
  runBatch,
  setUserActive,
  useAllGroups,
  useUserList,
  useUsersChanged,
  USERS_LIST_PAGE_SIZE,
  type ManagedUser,
  type UserListQuery,
} from '../users-api.js';
import { DataTable, LoadingState, PageHeader, StatusBadge } from '@atrium/sdk';
import IconSettings from '@tabler/icons-react/icons/IconSettings';
import IconUserPlus from '@tabler/icons-react/icons/IconUserPlus';
import IconUsers from '@tabler/icons-react/icons/IconUsers';
import { userActiveLabels, userStatusLabels } from '../users-labels.js';

const SEARCH_DEBOUNCE_MS = 250;

const ACTIVE_FILTERS = [
  { value: 'all', label: 'All users' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

/** Users: search, filter by active and group, 15 a page; activate or deactivate a selection at once. */
export default function UsersListPage() {
  return (
    <UsersAreaGate>
      <UsersList />
    </UsersAreaGate>
  );
}

function UsersList() {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useUsersChanged();
  const canCreate = useCan('identity:user', 'create').allowed;
  const canUpdate = useCan('identity:user', 'update').allowed;
  const [query, setQuery] = useState<UserListQuery>({ search: '', active: 'all', group: null, page: 1 });
  const [searchText, setSearchText] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [failures, setFailures] = useState<{ rows: BatchFailure[]; total: number }>({ rows: [], total: 0 });
  const groups = useAllGroups();
  const list = useUserList(query);
  const users = list.data?.users ?? [];
  const count = list.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / USERS_LIST_PAGE_SIZE));
  const groupName = new Map((groups.data ?? []).map((g) => [g.id, g.name]));

  const update = (change: Partial<UserListQuery>) => {
    setQuery((current) => ({ ...current, page: 1, ...change }));
    setSelected(new Set());
  };

  // The search asks the server once typing pauses (250 ms), not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery((current) => (current.search === searchText ? current : { ...current, search: searchText, page: 1 }));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  async function setActive(active: boolean) {
    const chosen = users.filter((u) => selected.has(u.id));
    const failed = await runBatch(chosen, (user) => setUserActive(api, user, active));
    setSelected(new Set(failed.map((f) => f.item.id)));
    await changed();
    if (failed.length)
      setFailures({
        rows: failed.map((f) => ({ label: f.item.username, errorMessage: f.errorMessage })),
        total: chosen.length,
      });
    else
      services.showToast({
        message: `${active ? 'Activated' : 'Deactivated'} ${chosen.length} ${chosen.length === 1 ? 'user' : 'users'}.`,
        kind: 'success',
      });
  }

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = users.length > 0 && users.every((u) => selected.has(u.id));
  const selectionLabel = selected.size === 1 ? 'user' : `selection of ${selected.size} users`;

  return (
    <Stack>
      <PageHeader
        title="Users"
        icon={IconUsers}
        actions={
          <>
            <Button
              component={Link}
              to={usersAdminSettingsRoute.link({})}
              variant="default"
              leftSection={<IconSettings size={16} aria-hidden />}
            >
              Admin settings
            </Button>
            {canCreate && (
              <Button
                component={Link}
                to={usersManageRoute.link({})}
                leftSection={<IconUserPlus size={16} aria-hidden />}
              >
                New user
              </Button>
            )}
          </>
        }
      />
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Search"
          placeholder="User name, name or e-mail"
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={260}
        />
        <Select
          label="Status"
          data={ACTIVE_FILTERS}
          value={query.active}
          allowDeselect={false}
          onChange={(value) => update({ active: (value as UserListQuery['active'] | null) ?? 'all' })}
        />
        <Select
          label="Group"
          placeholder="All groups"
          clearable
          searchable
          data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
          value={query.group}
          onChange={(value) => update({ group: value })}
        />
        {canUpdate && selected.size > 0 && (
          <>
            <ConfirmButton label={selectionLabel} verb="activate" onConfirm={() => setActive(true)}>
              Activate selected ({selected.size})
            </ConfirmButton>
            <ConfirmButton label={selectionLabel} verb="deactivate" color="red" onConfirm={() => setActive(false)}>
              Deactivate selected ({selected.size})
            </ConfirmButton>
          </>
        )}
      </Group>
      <ErrorAlert error={list.error ?? groups.error} />
      <DataTable label="Users" stickyFirstColumn={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Checkbox
                aria-label="Select all users on this page"
                disabled={!canUpdate || users.length === 0}
                checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(users.map((u) => u.id)))}
              />
            </Table.Th>
            <Table.Th>User name</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th>Groups</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Active</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user: ManagedUser) => (
            <Table.Tr key={user.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${user.username}`}
                  disabled={!canUpdate}
                  checked={selected.has(user.id)}
                  onChange={() => toggle(user.id)}
                />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={usersEditRoute.link({ username: user.username })}>
                  {user.username}
                </Anchor>
              </Table.Td>
              <Table.Td>{user.name}</Table.Td>
              <Table.Td>{user.phone_number ?? ''}</Table.Td>
              <Table.Td>{user.groupIds.map((id) => groupName.get(id) ?? id).join(', ')}</Table.Td>
              <Table.Td>
                <StatusBadge labels={userStatusLabels} value={user.status} variant="outline" />
              </Table.Td>
              <Table.Td>
                <StatusBadge labels={userActiveLabels} value={user.is_active ? 'active' : 'inactive'} />
              </Table.Td>
            </Table.Tr>
          ))}
          {!list.isPending && users.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={7}>
                <Text size="sm">No users found.</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </DataTable>
      {list.isPending && users.length === 0 ? <LoadingState rows={5} label="Loading users" /> : null}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {count} {count === 1 ? 'user' : 'users'}
        </Text>
        {pages > 1 && (
          <Pagination
            getControlProps={paginationControlProps}
            total={pages}
            value={query.page}
            onChange={(page) => setQuery((q) => ({ ...q, page }))}
            size="sm"
            aria-label="Users pages"
          />
        )}
      </Group>
      <BatchFailureModal
        failures={failures.rows}
        total={failures.total}
        itemColumn="User name"
        onClose={() => setFailures({ rows: [], total: 0 })}
      />
    </Stack>
  );
}
