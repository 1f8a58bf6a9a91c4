import { Button, Card, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useApiClient } from '@atrium/sdk';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { saveMapping, useMapping, useProductViewsChanged, type ProductMapping } from '../catalog/product-views-api.js';
import { ErrorAlert, ServerMessage, useCanWrite } from './shared.js';
import { useWriteAction } from './use-write-action.js';

const OPERATIONS = ['map', 'other'];
const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A comma-separated list input: the text stays as typed, the list is parsed from it. */
function ListInput({ label, value, onChange }: { label: string; value: string[]; onChange(list: string[]): void }) {
  const [text, setText] = useState(value.join(', '));
  useEffect(() => {
    // Take a new value from outside (a reload), not the echo of our own typing.
    setText((current) => (splitList(current).join(',') === value.join(',') ? current : value.join(', ')));
  }, [value]);
  return (
    <TextInput
      aria-label={label}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        onChange(splitList(e.currentTarget.value));
      }}
    />
  );
}

/** The product mapping view: per risk type, field entries with sources, targets and an operation. */
export function MappingView({
  productId,
  versionId,
  readOnly,
  riskTypeNames,
}: {
  productId: number;
  versionId: number;
  readOnly: boolean;
  riskTypeNames: string[];
}) {
  const api = useApiClient();
  const changed = useProductViewsChanged();
  const canUpdate = useCanWrite(LINES_RESOURCES.mapping, 'update') && !readOnly;
  const mapping = useMapping(productId, versionId);
  const [draft, setDraft] = useState<ProductMapping>({});
  const { message, act } = useWriteAction(changed);
  useEffect(() => {
    if (mapping.data) setDraft(mapping.data);
  }, [mapping.data]);

  const names = [...new Set([...Object.keys(draft), ...riskTypeNames])];
  const update = (riskType: string, index: number, change: Partial<ProductMapping[string]['fields'][number]>) =>
    setDraft((current) => {
      const fields = [...(current[riskType]?.fields ?? [])];
      fields[index] = { ...fields[index]!, ...change };
      return { ...current, [riskType]: { fields } };
    });

  const save = () => act(() => saveMapping(api, productId, versionId, draft), 'Mapping saved.');

  return (
    <Stack>
      <ErrorAlert error={mapping.error} />
      <ServerMessage message={message} />
      {names.map((riskType) => (
        <Card key={riskType} withBorder>
          <Title order={4}>
            <Code fz="inherit">{riskType}</Code>
          </Title>
          <Table aria-label={`Mapping of ${riskType}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sources</Table.Th>
                <Table.Th>Targets</Table.Th>
                <Table.Th>Operation</Table.Th>
                <Table.Th>Description</Table.Th>
                {canUpdate && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(draft[riskType]?.fields ?? []).map((entry, index) => (
                <Table.Tr key={index}>
                  <Table.Td>
                    {canUpdate ? (
                      <ListInput
                        label="Sources"
                        value={entry.sources}
                        onChange={(sources) => update(riskType, index, { sources })}
                      />
                    ) : (
                      entry.sources.join(', ')
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canUpdate ? (
                      <ListInput
                        label="Targets"
                        value={entry.targets}
                        onChange={(targets) => update(riskType, index, { targets })}
                      />
                    ) : (
                      entry.targets.join(', ')
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canUpdate ? (
                      <Select
                        aria-label="Operation"
                        data={[...new Set([...OPERATIONS, entry.operation])]}
                        value={entry.operation}
                        allowDeselect={false}
                        onChange={(operation) => update(riskType, index, { operation: operation ?? 'map' })}
                      />
                    ) : (
                      entry.operation
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canUpdate ? (
                      <TextInput
                        aria-label="Description"
                        value={entry.description ?? ''}
                        onChange={(e) => update(riskType, index, { description: e.currentTarget.value || undefined })}
                      />
                    ) : (
                      (entry.description ?? '')
                    )}
                  </Table.Td>
                  {canUpdate && (
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() =>
                          setDraft((current) => ({
                            ...current,
                            [riskType]: { fields: (current[riskType]?.fields ?? []).filter((_, i) => i !== index) },
                          }))
                        }
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {canUpdate && (
            <Group mt="xs">
              <Button
                size="xs"
                variant="light"
                onClick={() =>
                  setDraft((current) => ({
                    ...current,
                    [riskType]: {
                      fields: [...(current[riskType]?.fields ?? []), { sources: [], targets: [], operation: 'map' }],
                    },
                  }))
                }
              >
                Add entry
              </Button>
            </Group>
          )}
        </Card>
      ))}
      {names.length === 0 && <Text c="dimmed">No risk types to map.</Text>}
      {canUpdate && (
        <Group>
          <Button onClick={save}>Save mapping</Button>
        </Group>
      )}
    </Stack>
  );
}
