import { Badge, Button, Group, NumberInput, Paper, Select, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorAlert, LoadingState, errorMessage, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import {
  ALL_STATES,
  DELIVERABLES,
  DELIVERY_METHODS,
  US_STATES,
  type DeliveryMethod,
  type EffectiveDeliverable,
  type MassDeliverableRow,
} from '../../shared/mass-deliverables.js';

const STATE_OPTIONS = [
  { value: ALL_STATES, label: 'Every state (default)' },
  ...US_STATES.map((s) => ({ value: s, label: s })),
];
const METHOD_OPTIONS = DELIVERY_METHODS.map((m) => ({ value: m.key, label: m.label }));
/** In a state's table, "Same as default" drops the state's own row. */
const DEFAULT_OPTION = { value: 'default', label: 'Same as default' };

type Draft = Record<string, { delivery: DeliveryMethod | 'default'; days_before: number | null }>;

const draftOf = (rows: EffectiveDeliverable[], state: string): Draft =>
  Object.fromEntries(
    rows.map((r) => [
      r.deliverable,
      { delivery: state !== ALL_STATES && r.source === 'default' ? 'default' : r.delivery, days_before: r.days_before },
    ]),
  );

/**
 * How mass deliverables go out, per state (settings.views retrieveMassDeliverablesTable): choose a
 * state, then per deliverable its own way of sending or "Same as default"; the default row is
 * edited with "Every state". Administrators only (settings:mass-deliverable).
 */
export function MassDeliverablesCard() {
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canUpdate = useCan('settings:mass-deliverable', 'update').allowed;
  const [state, setState] = useState<string>(ALL_STATES);
  const path = `/settings/mass-deliverables/${encodeURIComponent(state)}/`;
  const table = useQuery({
    queryKey: ['settings', 'mass-deliverables', state],
    queryFn: () => api.get<{ deliverables: EffectiveDeliverable[] }>(path),
  });
  const [draft, setDraft] = useState<Draft>({});
  useEffect(() => {
    if (table.data) setDraft(draftOf(table.data.deliverables, state));
  }, [table.data, state]);

  const save = useMutation({
    mutationFn: () => {
      const rows: MassDeliverableRow[] = DELIVERABLES.flatMap((d) => {
        const entry = draft[d.key];
        if (!entry || entry.delivery === 'default') return [];
        return [{ deliverable: d.key, delivery: entry.delivery, days_before: d.ahead ? entry.days_before : null }];
      });
      return api.put<{ deliverables: EffectiveDeliverable[] }>(path, { rows });
    },
    onSuccess: async (saved) => {
      showToast({
        message: `Mass deliverables for ${STATE_OPTIONS.find((o) => o.value === state)!.label} saved.`,
        kind: 'success',
      });
      queryClient.setQueryData(['settings', 'mass-deliverables', state], saved);
      await queryClient.invalidateQueries({ queryKey: ['settings', 'mass-deliverables'] });
    },
  });

  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb={4}>
        Mass deliverables
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        How declarations, notices and invoices sent in bulk go out. A state follows the default unless it says
        otherwise.
      </Text>
      <Select
        label="State"
        data={STATE_OPTIONS}
        value={state}
        onChange={(value) => value && setState(value)}
        searchable
        allowDeselect={false}
        w={240}
        mb="sm"
      />
      {table.isPending ? (
        <LoadingState label="Loading mass deliverables" />
      ) : table.isError ? (
        <ErrorAlert error={table.error} />
      ) : (
        <Table aria-label="Mass deliverables">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Deliverable</Table.Th>
              <Table.Th>Sent by</Table.Th>
              <Table.Th>Days ahead</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.data.deliverables.map((row) => {
              const d = DELIVERABLES.find((x) => x.key === row.deliverable)!;
              const entry = draft[row.deliverable] ?? { delivery: row.delivery, days_before: row.days_before };
              const inherited = entry.delivery === 'default';
              return (
                <Table.Tr key={row.deliverable}>
                  <Table.Td>{row.label}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Select
                        aria-label={`${row.label}: sent by`}
                        data={state === ALL_STATES ? METHOD_OPTIONS : [DEFAULT_OPTION, ...METHOD_OPTIONS]}
                        value={entry.delivery}
                        disabled={!canUpdate}
                        allowDeselect={false}
                        onChange={(value) =>
                          value &&
                          setDraft({
                            ...draft,
                            [row.deliverable]: { ...entry, delivery: value as Draft[string]['delivery'] },
                          })
                        }
                        w={220}
                      />
                      {inherited ? (
                        <Badge variant="light" color="gray">
                          {row.delivery_label}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {d.ahead ? (
                      <NumberInput
                        aria-label={`${row.label}: days ahead`}
                        min={0}
                        max={365}
                        allowDecimal={false}
                        disabled={!canUpdate || inherited}
                        value={entry.days_before ?? ''}
                        onChange={(value) =>
                          setDraft({
                            ...draft,
                            [row.deliverable]: { ...entry, days_before: value === '' ? null : Number(value) },
                          })
                        }
                        w={110}
                      />
                    ) : (
                      <Text size="sm" c="dimmed">
                        –
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {save.error ? (
        <Text c="red" size="sm" mt="xs">
          {errorMessage(save.error)}
        </Text>
      ) : null}
      {canUpdate ? (
        <Group justify="flex-end" mt="sm">
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!table.data}>
            Save mass deliverables
          </Button>
        </Group>
      ) : null}
    </Paper>
  );
}
