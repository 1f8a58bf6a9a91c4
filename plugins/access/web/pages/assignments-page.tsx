import { Button, Checkbox, Group, MultiSelect, Select, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import {
  ACCESS_API,
  ALL,
  runBatch,
  useAccessChanged,
  useAccessList,
  type Policy,
  type PolicyAssignment,
  type Role,
  type RoleGroupNameAssignment,
  type RoleUserNameAssignment,
} from '../access-api.js';
import { BatchFailureModal, ConfirmDeleteButton, ErrorAlert, type BatchFailure } from '../components/shared.js';
import { SubjectPicker } from '../components/subject-picker.js';

type Kind = 'policies' | 'users' | 'groups';

interface KindSpec {
  resource: string;
  /** The assigned thing's field in the assignment. */
  field: 'policy_id' | 'user_name' | 'group_name';
  column: string;
  noun: string;
}

const KINDS: Record<Kind, KindSpec> = {
  policies: { resource: 'policy-assignments', field: 'policy_id', column: 'Policy', noun: 'policy assignment' },
  users: { resource: 'role-user-name-assignments', field: 'user_name', column: 'User name', noun: 'user assignment' },
  groups: {
    resource: 'role-group-name-assignments',
    field: 'group_name',
    column: 'Group name',
    noun: 'group assignment',
  },
};

type AnyAssignment = PolicyAssignment | RoleUserNameAssignment | RoleGroupNameAssignment;

/**
 * Assignments: which policies a role has, and which users and groups hold a role. Assign several at
 * once and unassign a selection; failures of a batch are listed in the batch-failure dialog.
 */
export default function AssignmentsPage() {
  const [kind, setKind] = useState<Kind>('policies');
  return (
    <Stack>
      <Title order={1}>Assignments</Title>
      <Tabs value={kind} onChange={(value) => setKind((value as Kind | null) ?? 'policies')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="policies">Policies of roles</Tabs.Tab>
          <Tabs.Tab value="users">Users in roles</Tabs.Tab>
          <Tabs.Tab value="groups">Groups in roles</Tabs.Tab>
        </Tabs.List>
        {(Object.keys(KINDS) as Kind[]).map((k) => (
          <Tabs.Panel key={k} value={k} pt="md">
            <AssignmentSection kind={k} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

function AssignmentSection({ kind }: { kind: Kind }) {
  const spec = KINDS[kind];
  const api = useApiClient();
  const services = useHostServices();
  const changed = useAccessChanged();
  const canCreate = useCan('access:assignment', 'create').allowed;
  const canDelete = useCan('access:assignment', 'delete').allowed;
  const [roleFilter, setRoleFilter] = useState<string | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const [targets, setTargets] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [failures, setFailures] = useState<{ rows: BatchFailure[]; total: number; column: string }>({
    rows: [],
    total: 0,
    column: spec.column,
  });

  const roles = useAccessList<Role>('roles', { page_size: ALL, ordering: 'name' });
  const policies = useAccessList<Policy>('policies', { page_size: ALL, ordering: 'name' });
  const list = useAccessList<AnyAssignment>(spec.resource, {
    page_size: ALL,
    ordering: `role,${spec.field}`,
    role: roleFilter ?? undefined,
  });
  const rows = list.data?.results ?? [];
  const roleNames = (roles.data?.results ?? []).map((r) => r.name);
  const policyName = new Map((policies.data?.results ?? []).map((p) => [p.id, p.name]));
  const labelOf = (row: AnyAssignment) =>
    'policy_id' in row
      ? (policyName.get(row.policy_id) ?? `Policy ${row.policy_id}`)
      : 'user_name' in row
        ? row.user_name
        : row.group_name;

  async function assign() {
    if (!role || targets.length === 0) return;
    setBusy(true);
    const failed = await runBatch(targets, (target) =>
      api.post(`${ACCESS_API}/${spec.resource}`, { role, [spec.field]: kind === 'policies' ? Number(target) : target }),
    );
    setBusy(false);
    await changed();
    const label = (target: string) => (kind === 'policies' ? (policyName.get(Number(target)) ?? target) : target);
    if (failed.length)
      setFailures({
        rows: failed.map((f) => ({ label: label(f.item), errorMessage: f.errorMessage })),
        total: targets.length,
        column: spec.column,
      });
    else services.showToast({ message: `Assigned to ${role}.`, kind: 'success' });
    setTargets(failed.map((f) => f.item));
  }

  async function unassign(chosen: AnyAssignment[]) {
    const failed = await runBatch(chosen, (row) => api.delete(`${ACCESS_API}/${spec.resource}/${row.id}`));
    setSelected(new Set());
    await changed();
    if (failed.length)
      setFailures({
        rows: failed.map((f) => ({ label: `${labelOf(f.item)} (${f.item.role})`, errorMessage: f.errorMessage })),
        total: chosen.length,
        column: spec.column,
      });
    else services.showToast({ message: `Unassigned ${chosen.length}.`, kind: 'success' });
  }

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Stack>
      {canCreate && (
        <Group align="flex-end">
          <Select
            label="Role"
            placeholder="Choose a role"
            searchable
            data={roleNames}
            value={role}
            onChange={setRole}
          />
          {kind === 'policies' ? (
            <MultiSelect
              label="Policies"
              placeholder="Choose policies"
              searchable
              miw={280}
              data={(policies.data?.results ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
              value={targets}
              onChange={setTargets}
            />
          ) : (
            <SubjectPicker
              kind={kind}
              label={kind === 'users' ? 'Users' : 'Groups'}
              value={targets}
              onChange={setTargets}
            />
          )}
          <Button onClick={assign} loading={busy} disabled={!role || targets.length === 0}>
            Assign
          </Button>
        </Group>
      )}
      <Group justify="space-between" align="flex-end">
        <Select
          label="Show role"
          placeholder="All roles"
          clearable
          searchable
          data={roleNames}
          value={roleFilter}
          onChange={setRoleFilter}
        />
        {canDelete && selected.size > 0 && (
          <ConfirmDeleteButton
            label={selected.size === 1 ? spec.noun : `selection of ${selected.size} ${spec.noun}s`}
            buttonLabel={`Unassign selected (${selected.size})`}
            onConfirm={() => unassign(rows.filter((row) => selected.has(row.id)))}
          />
        )}
      </Group>
      <ErrorAlert error={list.error} />
      <Table striped aria-label={`${spec.column} assignments`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th aria-label="Select" />
            <Table.Th>Role</Table.Th>
            <Table.Th>{spec.column}</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${labelOf(row)} in ${row.role}`}
                  disabled={!canDelete}
                  checked={selected.has(row.id)}
                  onChange={() => toggle(row.id)}
                />
              </Table.Td>
              <Table.Td>{row.role}</Table.Td>
              <Table.Td>{labelOf(row)}</Table.Td>
              <Table.Td>
                {canDelete && (
                  <ConfirmDeleteButton
                    label={spec.noun}
                    buttonLabel="Unassign"
                    ariaLabel={`Unassign ${labelOf(row)} from ${row.role}`}
                    onConfirm={() => unassign([row])}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
          {!list.isPending && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text size="sm">No assignments.</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <BatchFailureModal
        failures={failures.rows}
        total={failures.total}
        itemColumn={failures.column}
        onClose={() => setFailures({ rows: [], total: 0, column: spec.column })}
      />
    </Stack>
  );
}
