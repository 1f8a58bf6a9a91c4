import { Alert, Anchor, Button, Group, Loader, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { scenarioPreviewRoute } from './scenario-route.js';
import { errorText } from './error-text.js';
import { ScenarioDetail } from './scenario-detail.js';
import {
  TRANSACTION_TYPES,
  useScenarioActions,
  useScenarios,
  type ScenarioScope,
  type TransactionType,
} from './scenarios-api.js';
import { statusLabel } from '@atrium/sdk';
import { transactionTypeLabels } from '../lines-labels.js';

export interface ScenariosPanelProps {
  productId: number;
  versionId: number;
  readOnly: boolean;
}

/**
 * The scenarios of a product version: list, create, copy, reset and delete, and one scenario open
 * below the list (risk tree, risk states, rating with the worksheet). The preview link opens the
 * same scenario on its own page.
 */
export default function ScenariosPanel({ productId, versionId, readOnly }: ScenariosPanelProps) {
  const scope: ScenarioScope = { productId, versionId };
  const scenarios = useScenarios(scope);
  const actions = useScenarioActions(scope);
  const [openId, setOpenId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async <T,>(action: Promise<T>): Promise<T | undefined> => {
    setError(null);
    try {
      return await action;
    } catch (failure) {
      setError(errorText(failure));
      return undefined;
    }
  };

  return (
    <Stack gap="md">
      {!readOnly && <NewScenarioForm scope={scope} onCreated={setOpenId} />}
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {scenarios.isPending && <Loader size="sm" role="status" aria-label="Loading scenarios" />}
      {scenarios.isError && <Alert color="red">{errorText(scenarios.error)}</Alert>}
      {scenarios.data && scenarios.data.length === 0 && <Text c="dimmed">This version has no scenarios.</Text>}
      {scenarios.data && scenarios.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Scenarios" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Transaction</Table.Th>
                <Table.Th>Effective</Table.Th>
                <Table.Th>Expected premium</Table.Th>
                <Table.Th>Last premium</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {scenarios.data.map((scenario) => (
                <Table.Tr key={scenario.id} bg={scenario.id === openId ? 'var(--mantine-color-blue-0)' : undefined}>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button variant="subtle" size="compact-sm" onClick={() => setOpenId(scenario.id)}>
                        {scenario.name}
                      </Button>
                      <Anchor
                        size="sm"
                        component={Link}
                        to={scenarioPreviewRoute.link(
                          { productId, scenarioId: scenario.id },
                          { version_id: versionId, ...(readOnly ? { read_only: 'true' } : {}) },
                        )}
                      >
                        Preview
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>{statusLabel(transactionTypeLabels, scenario.transaction_type)}</Table.Td>
                  <Table.Td>{scenario.effective_date}</Table.Td>
                  <Table.Td>{scenario.expected_premium ?? '—'}</Table.Td>
                  <Table.Td>{scenario.premium?.term ?? '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {!readOnly && (
                        <>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            onClick={async () => {
                              const copy = await run(actions.copy.mutateAsync(scenario.id));
                              if (copy) setOpenId(copy.id);
                            }}
                          >
                            Copy
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            onClick={() => void run(actions.reset.mutateAsync(scenario.id))}
                          >
                            Reset
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            onClick={async () => {
                              if (openId === scenario.id) setOpenId(null);
                              await run(actions.remove.mutateAsync(scenario.id));
                            }}
                          >
                            Delete
                          </Button>
                        </>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {openId !== null && <ScenarioDetail key={openId} scope={scope} scenarioId={openId} readOnly={readOnly} />}
    </Stack>
  );
}

function NewScenarioForm({ scope, onCreated }: { scope: ScenarioScope; onCreated(id: number): void }) {
  const actions = useScenarioActions(scope);
  const [name, setName] = useState('');
  const [transactionType, setTransactionType] = useState<TransactionType>('new_business');
  const [effectiveDate, setEffectiveDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [expected, setExpected] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    setError(null);
    try {
      const created = await actions.create.mutateAsync({
        name: name.trim(),
        transaction_type: transactionType,
        effective_date: effectiveDate,
        expected_premium: expected.trim() === '' ? null : expected.trim(),
      });
      setName('');
      setExpected('');
      onCreated(created.id);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <Stack gap={4}>
      <Group align="end">
        <TextInput
          label="New scenario"
          placeholder="Name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Select
          label="Transaction type"
          aria-label="New scenario transaction type"
          data={TRANSACTION_TYPES.map((t) => ({ value: t, label: statusLabel(transactionTypeLabels, t) }))}
          value={transactionType}
          allowDeselect={false}
          onChange={(value) => value && setTransactionType(value as TransactionType)}
        />
        <TextInput
          label="Effective date"
          aria-label="New scenario effective date"
          type="date"
          value={effectiveDate}
          onChange={(e) => setEffectiveDate(e.currentTarget.value)}
        />
        <TextInput
          label="Expected premium"
          aria-label="New scenario expected premium"
          placeholder="optional"
          value={expected}
          onChange={(e) => setExpected(e.currentTarget.value)}
        />
        <Button onClick={() => void create()} disabled={name.trim() === ''} loading={actions.create.isPending}>
          Create scenario
        </Button>
      </Group>
      {error && <Alert color="red">{error}</Alert>}
    </Stack>
  );
}
