import { Button, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert, mapServerFormErrors, required, useApiClient, useCan, validateForm } from '@atrium/sdk';
import { useLookup } from '../api/claims-api.js';
import { errorMessageOf, resourceBody, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { searchPolicies } from '../api/policies-api.js';
import { humanizeEnum } from '@atrium/sdk';
import type { PolicyRevisionSummary } from '../machines/fnol-types.js';
import { RevisionCoveragesDialog } from './revision-coverages-dialog.js';

const blank = {
  policy_number: '',
  insured_name: '',
  revision_number: '1',
  policy_type_id: '',
  policy_status_id: '',
  effective_date: '',
  expiration_date: '',
};

/**
 * The mock policies themselves: the integration searches them (by number, newest first) and creates
 * a policy with its first revision; there is no delete (the spec gives none).
 */
export function MockPoliciesSection() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canCreate = useCan('claims:policy', 'create');
  const canUpdate = useCan('claims:policy', 'update');
  const [editing, setEditing] = useState<{ policyNumber: string; revision: PolicyRevisionSummary } | null>(null);
  const [search, setSearch] = useState('');
  const policies = useQuery({
    queryKey: ['claims-module', 'mock-policies', search],
    queryFn: ({ signal }) => searchPolicies(api, search, 'policyNumber', signal),
  });
  const types = useLookup(PATHS.policyTypes);
  const statuses = useLookup(PATHS.policyStatuses);
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      api.post(
        PATHS.policies,
        resourceBody('policy', {
          policy_number: values.policy_number.trim(),
          insured_name: values.insured_name.trim(),
          revision: {
            number: values.revision_number.trim(),
            policy_type_id: values.policy_type_id ? Number(values.policy_type_id) : null,
            policy_status_id: values.policy_status_id ? Number(values.policy_status_id) : null,
            policy_term: { effective_date: values.effective_date, expiration_date: values.expiration_date },
          },
        }),
        { jsonApi: true },
      ),
    onSuccess: () => {
      setOpen(false);
      setValues(blank);
      return queryClient.invalidateQueries({ queryKey: ['claims-module', 'mock-policies'] });
    },
    onError: (error) => setErrors(mapServerFormErrors(error).fields),
  });
  const field = (name: keyof typeof blank, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={values[name]}
      onChange={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
      error={errors[name]}
    />
  );
  const options = (rows: typeof types.data) =>
    (rows ?? []).map((r) => ({ value: r.id, label: text(r.label || r.name) }));

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={3}>Policies</Title>
        <Group align="flex-end">
          <TextInput label="Policy number" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          {canCreate.allowed ? <Button onClick={() => setOpen(true)}>Add policy</Button> : null}
        </Group>
      </Group>
      <ErrorAlert error={policies.error} />
      <Table aria-label="Mock policies">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Policy number</Table.Th>
            <Table.Th>Primary insured</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Revisions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(policies.data ?? []).map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{p.policy_number}</Table.Td>
              <Table.Td>{p.primary_insured}</Table.Td>
              <Table.Td>{p.policy_type ? humanizeEnum(p.policy_type) : '–'}</Table.Td>
              <Table.Td>{p.status ? humanizeEnum(p.status) : '–'}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  {p.revisions.map((r) => (
                    <Group key={r.id} gap="xs" wrap="nowrap">
                      <Text size="sm">
                        Revision {r.number}: {r.coverages.length} {r.coverages.length === 1 ? 'coverage' : 'coverages'}
                      </Text>
                      {canUpdate.allowed ? (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          aria-label={`Edit coverages of ${p.policy_number} revision ${r.number}`}
                          onClick={() => setEditing({ policyNumber: p.policy_number, revision: r })}
                        >
                          Coverages
                        </Button>
                      ) : null}
                    </Group>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {policies.data?.length === 0 ? <Text c="dimmed">No policies found.</Text> : null}
      {editing ? (
        <RevisionCoveragesDialog
          policyNumber={editing.policyNumber}
          revision={editing.revision}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <Modal opened={open} onClose={() => setOpen(false)} title="Add policy">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const rule = { rules: [required()] };
            const found = validateForm(values, {
              policy_number: { label: 'Policy number', ...rule },
              insured_name: { label: 'Primary insured', ...rule },
              revision_number: { label: 'Revision', ...rule },
              effective_date: { label: 'Effective date', ...rule },
              expiration_date: { label: 'Expiration date', ...rule },
            }) as Record<string, string>;
            setErrors(found);
            if (Object.keys(found).length === 0) create.mutate();
          }}
        >
          <Stack>
            {field('policy_number', 'Policy number')}
            {field('insured_name', 'Primary insured')}
            {field('revision_number', 'Revision')}
            <Select
              label="Policy type"
              clearable
              data={options(types.data)}
              value={values.policy_type_id || null}
              onChange={(v) => setValues({ ...values, policy_type_id: v ?? '' })}
            />
            <Select
              label="Policy status"
              clearable
              data={options(statuses.data)}
              value={values.policy_status_id || null}
              onChange={(v) => setValues({ ...values, policy_status_id: v ?? '' })}
            />
            {field('effective_date', 'Effective date', 'date')}
            {field('expiration_date', 'Expiration date', 'date')}
            {create.error && Object.keys(mapServerFormErrors(create.error).fields).length === 0 ? (
              <ErrorAlert error={new Error(errorMessageOf(create.error))} />
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
