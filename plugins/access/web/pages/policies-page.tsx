import { Anchor, Button, Checkbox, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { ACCESS_API, PAGE_SIZE, runBatch, useAccessChanged, useAccessList, type Policy } from '../access-api.js';
import {
  BatchFailureModal,
  ConfirmDeleteButton,
  ErrorAlert,
  Pager,
  SortHeader,
  type BatchFailure,
} from '../components/shared.js';
import { accessPolicyEditRoute, NEW_POLICY_ID } from '../routes.js';
import { formatDate, StatusBadge } from '@atrium/sdk';
import { policyTypeLabels } from '../access-labels.js';

/** Policies: filter by type and name, order by any column, pages of 15; delete custom ones. */
export default function PoliciesPage() {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useAccessChanged();
  const canCreate = useCan('access:policy', 'create').allowed;
  const canDelete = useCan('access:policy', 'delete').allowed;
  const [type, setType] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [ordering, setOrdering] = useState('name');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [failures, setFailures] = useState<{ rows: BatchFailure[]; total: number }>({ rows: [], total: 0 });

  const query = { page, page_size: PAGE_SIZE, ordering, type: type ?? undefined, name: name.trim() || undefined };
  const list = useAccessList<Policy>('policies', query);
  const policies = list.data?.results ?? [];

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function deleteSelected() {
    const chosen = policies.filter((policy) => selected.has(policy.id));
    const failed = await runBatch(chosen, (policy) => api.delete(`${ACCESS_API}/policies/${policy.id}`));
    setSelected(new Set());
    await changed();
    if (failed.length)
      setFailures({
        rows: failed.map((f) => ({ label: f.item.name, errorMessage: f.errorMessage })),
        total: chosen.length,
      });
    else
      services.showToast({
        message: `Deleted ${chosen.length} ${chosen.length === 1 ? 'policy' : 'policies'}.`,
        kind: 'success',
      });
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Policies</Title>
        <Group>
          {canDelete && selected.size > 0 && (
            <ConfirmDeleteButton
              label={selected.size === 1 ? 'policy' : `selection of ${selected.size} policies`}
              buttonLabel={`Delete selected (${selected.size})`}
              onConfirm={deleteSelected}
            />
          )}
          {canCreate && (
            <Button component={Link} to={accessPolicyEditRoute.link({ policyId: NEW_POLICY_ID })}>
              New policy
            </Button>
          )}
        </Group>
      </Group>
      <Group>
        <Select
          label="Type"
          placeholder="All"
          clearable
          data={[
            { value: 'system', label: 'System' },
            { value: 'custom', label: 'Custom' },
          ]}
          value={type}
          onChange={(value) => {
            setType(value);
            setPage(1);
          }}
        />
        <TextInput
          label="Name"
          placeholder="Contains…"
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      <ErrorAlert error={list.error} />
      <Table striped highlightOnHover aria-label="Policies">
        <Table.Thead>
          <Table.Tr>
            <Table.Th aria-label="Select" />
            <SortHeader field="name" ordering={ordering} onOrdering={setOrdering}>
              Name
            </SortHeader>
            <SortHeader field="type" ordering={ordering} onOrdering={setOrdering}>
              Type
            </SortHeader>
            <SortHeader field="version" ordering={ordering} onOrdering={setOrdering}>
              Version
            </SortHeader>
            <SortHeader field="date_added" ordering={ordering} onOrdering={setOrdering}>
              Added
            </SortHeader>
            <Table.Th>Statements</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {policies.map((policy) => (
            <Table.Tr key={policy.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${policy.name}`}
                  disabled={policy.type === 'system' || !canDelete}
                  checked={selected.has(policy.id)}
                  onChange={() => toggle(policy.id)}
                />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={accessPolicyEditRoute.link({ policyId: policy.id })}>
                  {policy.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge labels={policyTypeLabels} value={policy.type} />
              </Table.Td>
              <Table.Td>{policy.version}</Table.Td>
              <Table.Td>{formatDate(policy.date_added)}</Table.Td>
              <Table.Td>{policy.statements.length}</Table.Td>
            </Table.Tr>
          ))}
          {!list.isPending && policies.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={6}>No policies found.</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Pager count={list.data?.count ?? 0} pageSize={PAGE_SIZE} page={page} onPage={setPage} />
      <BatchFailureModal
        failures={failures.rows}
        total={failures.total}
        itemColumn="Policy"
        onClose={() => setFailures({ rows: [], total: 0 })}
      />
    </Stack>
  );
}
