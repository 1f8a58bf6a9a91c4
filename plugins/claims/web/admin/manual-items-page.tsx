import { Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  decimal,
  ErrorAlert,
  mapServerFormErrors,
  minValue,
  noSpace,
  required,
  useApiClient,
  useCan,
  validateForm,
  type FieldRules,
} from '@atrium/sdk';
import { errorMessageOf, flatten, resourceBody, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';

/**
 * claims:admin-setup:manual-items — the items an adjuster may add to a claim when the policy does
 * not list them (a rental car, temporary housing) and the limits that apply to them, per claims
 * product (or for every product). Searched by name or label (case-insensitive); added, edited and
 * deactivated, never deleted (docs/claims-screens.md, "Manual Items").
 */
const ITEMS = '/claims/manual-items/';
const LIMITS = '/claims/manual-limits/';
const RESOURCE = 'claims:lookup';
const PRODUCTS_PAGE_SIZE = 100;
const ALL = '';

const BASES = [
  { value: 'per_occurrence', label: 'Per occurrence' },
  { value: 'per_day', label: 'Per day' },
  { value: 'per_person', label: 'Per person' },
  { value: 'aggregate', label: 'Aggregate' },
];

interface Field {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'amount' | 'basis' | 'product' | 'item';
  rules?: FieldRules['rules'];
}

const ITEM_FIELDS: Field[] = [
  { name: 'label', label: 'Label', rules: [required()] },
  { name: 'name', label: 'Name', rules: [required()] },
  { name: 'code', label: 'Code', rules: [noSpace()] },
  { name: 'product_id', label: 'Product', kind: 'product' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const LIMIT_FIELDS: Field[] = [
  { name: 'label', label: 'Label', rules: [required()] },
  { name: 'name', label: 'Name', rules: [required()] },
  { name: 'code', label: 'Code', rules: [noSpace()] },
  { name: 'manual_item_id', label: 'Manual item', kind: 'item' },
  { name: 'product_id', label: 'Product', kind: 'product' },
  { name: 'limit_amount', label: 'Limit amount', kind: 'amount', rules: [required(), minValue(0), decimal(2)] },
  { name: 'deductible_amount', label: 'Deductible amount', kind: 'amount', rules: [minValue(0), decimal(2)] },
  { name: 'limit_basis', label: 'Limit basis', kind: 'basis' },
];

const key = ['claims-module', 'admin', 'manual-items'];

export default function ManualItemsPage() {
  const api = useApiClient();
  const [search, setSearch] = useState('');
  const [productId, setProductId] = useState<string>(ALL);
  const products = useQuery({
    queryKey: ['claims-module', 'admin', 'manual-items', 'products'],
    queryFn: async ({ signal }) =>
      (await api.jsonApiFetchAll(PATHS.productList, { signal, pageSize: PRODUCTS_PAGE_SIZE })).data.map(flatten),
  });
  const productOptions = (products.data ?? []).map((p) => ({ value: p.id, label: text(p.label) || text(p.name) }));
  const query: Record<string, string> = {};
  if (search.trim()) query['filter[search]'] = search.trim();
  if (productId) query['filter[product_id]'] = productId;
  const items = useQuery({
    queryKey: [...key, ITEMS, query],
    queryFn: async ({ signal }) => (await api.jsonApiFetchAll(ITEMS, { signal, query })).data.map(flatten),
  });
  const limits = useQuery({
    queryKey: [...key, LIMITS, query],
    queryFn: async ({ signal }) => (await api.jsonApiFetchAll(LIMITS, { signal, query })).data.map(flatten),
  });
  // Every item (not only the ones the search finds) names a limit's item.
  const allItems = useQuery({
    queryKey: [...key, ITEMS, 'all'],
    queryFn: async ({ signal }) => (await api.jsonApiFetchAll(ITEMS, { signal })).data.map(flatten),
  });
  const productLabel = (id: unknown) =>
    id ? (productOptions.find((p) => p.value === id)?.label ?? `Product ${String(id)}`) : 'All products';
  const itemLabel = (id: unknown) => text((allItems.data ?? []).find((i) => i.id === id)?.label);

  return (
    <Stack>
      <Title order={1} size="h2">
        Manual Items
      </Title>
      <Group align="flex-end">
        <TextInput label="Search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} />
        <Select
          label="Product"
          data={[{ value: ALL, label: 'All products' }, ...productOptions]}
          value={productId}
          onChange={(value) => setProductId(value ?? ALL)}
          allowDeselect={false}
          w={220}
        />
      </Group>
      <ErrorAlert error={products.error} />
      <Maintained
        title="Manual items"
        type="manual-item"
        listPath={ITEMS}
        list={items}
        fields={ITEM_FIELDS}
        columns={[
          { label: 'Label', value: (r) => text(r.label) },
          { label: 'Name', value: (r) => text(r.name) },
          { label: 'Code', value: (r) => text(r.code) },
          { label: 'Product', value: (r) => productLabel(r.product_id) },
        ]}
        productOptions={productOptions}
        itemOptions={[]}
      />
      <Maintained
        title="Manual limits"
        type="manual-limit"
        listPath={LIMITS}
        list={limits}
        fields={LIMIT_FIELDS}
        columns={[
          { label: 'Label', value: (r) => text(r.label) },
          { label: 'Manual item', value: (r) => itemLabel(r.manual_item_id) },
          { label: 'Limit', value: (r) => text(r.limit_amount), align: 'right' },
          { label: 'Deductible', value: (r) => text(r.deductible_amount), align: 'right' },
          { label: 'Basis', value: (r) => BASES.find((b) => b.value === r.limit_basis)?.label ?? '' },
          { label: 'Product', value: (r) => productLabel(r.product_id) },
        ]}
        productOptions={productOptions}
        itemOptions={(allItems.data ?? []).map((i) => ({ value: i.id, label: text(i.label) }))}
      />
    </Stack>
  );
}

type Option = { value: string; label: string };

function Maintained({
  title,
  type,
  listPath,
  list,
  fields,
  columns,
  productOptions,
  itemOptions,
}: {
  title: string;
  type: string;
  listPath: string;
  list: { data?: Flat[]; error: unknown };
  fields: Field[];
  columns: { label: string; value(row: Flat): string; align?: 'right' }[];
  productOptions: Option[];
  itemOptions: Option[];
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canCreate = useCan(RESOURCE, 'create');
  const canUpdate = useCan(RESOURCE, 'update');
  const [editing, setEditing] = useState<Flat | 'new' | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (item: { id: string | null; attributes: Record<string, unknown>; relationships: Relationships }) =>
      item.id
        ? api.patch(
            `${listPath}${item.id}/`,
            resourceBody(type, item.attributes, { id: item.id, relationships: item.relationships }),
            { jsonApi: true },
          )
        : api.post(listPath, resourceBody(type, item.attributes, { relationships: item.relationships }), {
            jsonApi: true,
          }),
    onSuccess: () => {
      setEditing(null);
      return queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => setErrors(mapServerFormErrors(error).fields),
  });
  const toggle = useMutation({
    mutationFn: (row: Flat) =>
      api.patch(`${listPath}${row.id}/`, resourceBody(type, { expired: !row.expired }, { id: row.id }), {
        jsonApi: true,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const singular = title.replace(/s$/, '').toLowerCase();

  const open = (row: Flat | 'new') => {
    setEditing(row);
    setErrors({});
    save.reset();
    setValues(
      Object.fromEntries(
        fields.map((f) => [
          f.name,
          row === 'new' ? (f.kind === 'basis' ? 'per_occurrence' : '') : text(row[f.name] ?? ''),
        ]),
      ),
    );
  };

  const submit = () => {
    const found = validateForm(
      values,
      Object.fromEntries(fields.filter((f) => f.rules).map((f) => [f.name, { label: f.label, rules: f.rules! }])),
    ) as Record<string, string>;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const attributes: Record<string, unknown> = {};
    const relationships: Relationships = {};
    for (const f of fields) {
      const value = (values[f.name] ?? '').trim();
      if (f.kind === 'product') relationships.product = value ? { type: 'product', id: value } : null;
      else if (f.kind === 'item') relationships.manual_item = value ? { type: 'manual-item', id: value } : null;
      else attributes[f.name] = value === '' && f.name !== 'name' && f.name !== 'label' ? null : value;
    }
    if (attributes.limit_amount === null) delete attributes.limit_amount;
    save.mutate({ id: editing === 'new' || !editing ? null : editing.id, attributes, relationships });
  };
  const serverErrors = save.error ? mapServerFormErrors(save.error) : null;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        {canCreate.allowed ? (
          <Button onClick={() => open('new')} aria-label={`Add ${singular}`}>
            Add
          </Button>
        ) : null}
      </Group>
      <ErrorAlert error={list.error ?? toggle.error} />
      <Table aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} ta={c.align}>
                {c.label}
              </Table.Th>
            ))}
            <Table.Th>Status</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(list.data ?? []).map((row) => (
            <Table.Tr key={row.id}>
              {columns.map((c) => (
                <Table.Td key={c.label} ta={c.align}>
                  {c.value(row)}
                </Table.Td>
              ))}
              <Table.Td>
                <Badge color={row.expired ? 'gray' : 'green'} variant="light">
                  {row.expired ? 'Inactive' : 'Active'}
                </Badge>
              </Table.Td>
              <Table.Td>
                {canUpdate.allowed ? (
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" onClick={() => open(row)} aria-label={`Edit ${text(row.label)}`}>
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color={row.expired ? undefined : 'red'}
                      loading={toggle.isPending && toggle.variables?.id === row.id}
                      onClick={() => toggle.mutate(row)}
                      aria-label={`${row.expired ? 'Activate' : 'Deactivate'} ${text(row.label)}`}
                    >
                      {row.expired ? 'Activate' : 'Deactivate'}
                    </Button>
                  </Group>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.data?.length === 0 ? <Text c="dimmed">No {title.toLowerCase()} found.</Text> : null}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? `Add ${singular}` : `Edit ${singular}`}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack>
            {fields.map((f) => {
              const common = {
                label: f.label,
                withAsterisk: f.rules?.some((r) => r.name === 'required'),
                error: errors[f.name] ?? serverErrors?.fields[f.name],
              };
              const set = (value: string) => setValues({ ...values, [f.name]: value });
              if (f.kind === 'product' || f.kind === 'item' || f.kind === 'basis') {
                const data =
                  f.kind === 'basis'
                    ? BASES
                    : [
                        { value: '', label: f.kind === 'product' ? 'All products' : 'None' },
                        ...(f.kind === 'product' ? productOptions : itemOptions),
                      ];
                return (
                  <Select
                    key={f.name}
                    {...common}
                    data={data}
                    value={values[f.name] ?? ''}
                    onChange={(value) => set(value ?? '')}
                    allowDeselect={false}
                  />
                );
              }
              if (f.kind === 'textarea') {
                return (
                  <Textarea
                    key={f.name}
                    {...common}
                    value={values[f.name] ?? ''}
                    onChange={(e) => set(e.currentTarget.value)}
                  />
                );
              }
              return (
                <TextInput
                  key={f.name}
                  {...common}
                  inputMode={f.kind === 'amount' ? 'decimal' : undefined}
                  value={values[f.name] ?? ''}
                  onChange={(e) => set(e.currentTarget.value)}
                />
              );
            })}
            {serverErrors && Object.keys(serverErrors.fields).length === 0 ? (
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

type Relationships = Record<string, { type: string; id: string } | null>;
