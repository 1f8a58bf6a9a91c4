import { Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ConfirmButton,
  ErrorAlert,
  mapServerFormErrors,
  required,
  useApiClient,
  useCan,
  validateForm,
} from '@atrium/sdk';
import { errorMessageOf, flatten, resourceBody, text, type Flat } from '../api/jsonapi.js';

export interface CrudField {
  name: string;
  label: string;
  required?: boolean;
  kind?: 'text' | 'date' | 'boolean';
}

/**
 * A JSON:API collection maintained in a table: list (every page), create and edit in a dialog,
 * delete after the SDK's confirmation. Buttons appear only when the role may do the action on
 * `resource`; the server checks again and its field errors land on the fields (pointers).
 */
export function CrudList({
  title,
  type,
  resource,
  listPath,
  itemPath,
  fields,
  query = {},
  pageSize,
  deletable = true,
}: {
  title: string;
  type: string;
  resource: string;
  listPath: string;
  itemPath(id: string): string;
  fields: CrudField[];
  query?: Record<string, string>;
  /** The collection's largest page (products allow 100); default the JSON:API 250. */
  pageSize?: number;
  /** False when the service has no delete for the collection: no Delete button then. */
  deletable?: boolean;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const key = ['claims-module', 'admin', listPath, query];
  const list = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await api.jsonApiFetchAll(listPath, { query, signal, pageSize })).data.map(flatten),
  });
  const canCreate = useCan(resource, 'create');
  const canUpdate = useCan(resource, 'update');
  const canDelete = useCan(resource, 'delete');
  const [editing, setEditing] = useState<Flat | 'new' | null>(null);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (item: { id: string | null; attributes: Record<string, unknown> }) =>
      item.id
        ? api.patch(itemPath(item.id), resourceBody(type, item.attributes, { id: item.id }), { jsonApi: true })
        : api.post(listPath, resourceBody(type, item.attributes), { jsonApi: true }),
    onSuccess: () => {
      setEditing(null);
      return queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => setErrors(mapServerFormErrors(error).fields),
  });
  const [deleteError, setDeleteError] = useState<unknown>(null);

  const open = (item: Flat | 'new') => {
    setEditing(item);
    setErrors({});
    save.reset();
    setValues(
      Object.fromEntries(
        fields.map((f) => [f.name, item === 'new' ? (f.kind === 'boolean' ? false : '') : (item[f.name] ?? '')]),
      ),
    );
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        {canCreate.allowed ? <Button onClick={() => open('new')}>Add</Button> : null}
      </Group>
      <ErrorAlert error={list.error ?? deleteError} />
      <Table aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            {fields.map((f) => (
              <Table.Th key={f.name}>{f.label}</Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(list.data ?? []).map((item) => (
            <Table.Tr key={item.id}>
              {fields.map((f) => (
                <Table.Td key={f.name}>
                  {f.kind === 'boolean' ? (item[f.name] ? 'Yes' : 'No') : text(item[f.name])}
                </Table.Td>
              ))}
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  {canUpdate.allowed ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => open(item)}
                      aria-label={`Edit ${text(item[fields[0]!.name])}`}
                    >
                      Edit
                    </Button>
                  ) : null}
                  {deletable && canDelete.allowed ? (
                    <ConfirmButton
                      label={title.replace(/s$/, '').toLowerCase()}
                      verb="delete"
                      color="red"
                      variant="subtle"
                      size="xs"
                      ariaLabel={`Delete ${text(item[fields[0]!.name])}`}
                      onConfirm={async () => {
                        setDeleteError(null);
                        try {
                          await api.delete(itemPath(item.id), { jsonApi: true });
                          await queryClient.invalidateQueries({ queryKey: key });
                        } catch (error) {
                          setDeleteError(new Error(errorMessageOf(error)));
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
      {list.data?.length === 0 ? <Text c="dimmed">None yet.</Text> : null}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? `Add to ${title}` : `Edit ${title}`}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const found = validateForm(
              values,
              Object.fromEntries(
                fields.filter((f) => f.required).map((f) => [f.name, { label: f.label, rules: [required()] }]),
              ),
            ) as Record<string, string>;
            setErrors(found);
            if (Object.keys(found).length > 0) return;
            const attributes = Object.fromEntries(
              fields.map((f) => [
                f.name,
                f.kind === 'boolean' ? values[f.name] === true : String(values[f.name] ?? '').trim() || null,
              ]),
            );
            save.mutate({ id: editing === 'new' || !editing ? null : editing.id, attributes });
          }}
        >
          <Stack>
            {fields.map((f) =>
              f.kind === 'boolean' ? (
                <Checkbox
                  key={f.name}
                  label={f.label}
                  checked={values[f.name] === true}
                  onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.checked })}
                />
              ) : (
                <TextInput
                  key={f.name}
                  label={f.label}
                  type={f.kind === 'date' ? 'date' : 'text'}
                  withAsterisk={f.required}
                  value={text(values[f.name])}
                  onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.value })}
                  error={errors[f.name]}
                />
              ),
            )}
            {save.error && Object.keys(mapServerFormErrors(save.error).fields).length === 0 ? (
              <ErrorAlert error={new Error(errorMessageOf(save.error))} />
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
