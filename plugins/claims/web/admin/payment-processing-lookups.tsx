import { Badge, Button, Group, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ConfirmButton,
  ErrorAlert,
  mapServerFormErrors,
  noSpace,
  required,
  useApiClient,
  useCan,
  validateForm,
  type ResourceItem,
} from '@atrium/sdk';
import { errorMessageOf, text } from '../api/jsonapi.js';
import { payCodes, paymentMethods, type PaymentLookupClient } from '../api/collections.js';

/**
 * Payment methods and pay codes as claims finance maintains them on the Payment Processing page
 * (docs/claims-accounting.md, "Payment methods and pay codes"): add, relabel, deactivate and
 * activate; delete only what no transaction names (the server answers 409 otherwise).
 */
export function PaymentLookups() {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <LookupList title="Payment methods" client={paymentMethods} />
      <LookupList title="Pay codes" client={payCodes} />
    </SimpleGrid>
  );
}

function LookupList({ title, client }: { title: string; client: PaymentLookupClient }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const list = useQuery(client.allQuery(api));
  const canCreate = useCan('claims:lookup', 'create');
  const canUpdate = useCan('claims:lookup', 'update');
  const canDelete = useCan('claims:lookup', 'delete');
  const [values, setValues] = useState({ name: '', label: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [actionError, setActionError] = useState<unknown>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: client.keys.all });
  const add = useMutation({
    mutationFn: () => client.create(api, { attributes: { name: values.name.trim(), label: values.label.trim() } }),
    onSuccess: () => {
      setValues({ name: '', label: '' });
      return refresh();
    },
    onError: (error) => setErrors(mapServerFormErrors(error).fields),
  });
  const toggle = async (row: ResourceItem) => {
    setActionError(null);
    try {
      await client.update(api, row.id, { attributes: { active: !row.active } });
      await refresh();
    } catch (error) {
      setActionError(new Error(errorMessageOf(error)));
    }
  };
  const singular = title.replace(/s$/, '').toLowerCase();

  return (
    <Stack>
      <Title order={3}>{title}</Title>
      <ErrorAlert error={list.error ?? actionError} />
      <Table aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Label</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(list.data ?? []).map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{text(row.name)}</Table.Td>
              <Table.Td>{text(row.label)}</Table.Td>
              <Table.Td>
                <Badge color={row.active ? 'green' : 'gray'} variant="light">
                  {row.active ? 'Active' : 'Inactive'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  {canUpdate.allowed ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => void toggle(row)}
                      aria-label={`${row.active ? 'Deactivate' : 'Activate'} ${text(row.name)}`}
                    >
                      {row.active ? 'Deactivate' : 'Activate'}
                    </Button>
                  ) : null}
                  {canDelete.allowed ? (
                    <ConfirmButton
                      label={singular}
                      verb="delete"
                      color="red"
                      variant="subtle"
                      size="xs"
                      ariaLabel={`Delete ${text(row.name)}`}
                      onConfirm={async () => {
                        setActionError(null);
                        try {
                          await client.remove(api, row.id);
                          await refresh();
                        } catch (error) {
                          setActionError(new Error(errorMessageOf(error)));
                        }
                      }}
                    >
                      Delete
                    </ConfirmButton>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canCreate.allowed ? (
        <form
          aria-label={`Add ${singular}`}
          onSubmit={(e) => {
            e.preventDefault();
            const found = validateForm(values, {
              name: { label: 'Name', rules: [required(), noSpace()] },
              label: { label: 'Label', rules: [required()] },
            }) as Record<string, string>;
            setErrors(found);
            if (Object.keys(found).length === 0) add.mutate();
          }}
        >
          <Group align="flex-start">
            <TextInput
              label="Name"
              size="xs"
              value={values.name}
              onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
              error={errors.name}
            />
            <TextInput
              label="Label"
              size="xs"
              value={values.label}
              onChange={(e) => setValues({ ...values, label: e.currentTarget.value })}
              error={errors.label}
            />
            <Button type="submit" size="xs" mt={24} loading={add.isPending}>
              Add
            </Button>
          </Group>
          {add.error && Object.keys(mapServerFormErrors(add.error).fields).length === 0 ? (
            <ErrorAlert error={new Error(errorMessageOf(add.error))} />
          ) : null}
        </form>
      ) : null}
    </Stack>
  );
}
