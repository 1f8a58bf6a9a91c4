import { Alert, Button, Grid, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { errorText } from './error-text.js';
import { RatingPanel } from './rating-panel.js';
import { RiskStateForm } from './risk-state-form.js';
import { RiskTree } from './risk-tree.js';
import {
  TRANSACTION_TYPES,
  useRiskTypes,
  useScenario,
  useScenarioActions,
  type RiskNode,
  type Scenario,
  type ScenarioScope,
  type TransactionType,
} from './scenarios-api.js';

/**
 * One scenario: its settings (name, transaction type, effective date, expected premium of a
 * known-answer case), its risk tree with the selected risk's state, and the rating panel.
 */
export interface ScenarioDetailProps {
  scope: ScenarioScope;
  scenarioId: number;
  readOnly: boolean;
}

function findRisk(node: RiskNode | null, id: number | null): RiskNode | null {
  if (!node || id === null) return null;
  if (node.id === id) return node;
  for (const child of node.children) {
    const found = findRisk(child, id);
    if (found) return found;
  }
  return null;
}

export function ScenarioDetail({ scope, scenarioId, readOnly }: ScenarioDetailProps) {
  const scenario = useScenario(scope, scenarioId);
  if (scenario.isPending) return <Loader size="sm" role="status" aria-label="Loading scenario" />;
  if (scenario.isError)
    return (
      <Alert color="red" title="The scenario could not be loaded">
        {errorText(scenario.error)}
      </Alert>
    );
  return <ScenarioWorkbench scope={scope} scenario={scenario.data} readOnly={readOnly} />;
}

function ScenarioWorkbench({
  scope,
  scenario,
  readOnly,
}: {
  scope: ScenarioScope;
  scenario: Scenario;
  readOnly: boolean;
}) {
  const riskTypes = useRiskTypes(scope);
  const actions = useScenarioActions(scope);
  const root = scenario.unified_risk_state;
  const [selectedId, setSelectedId] = useState<number | null>(root?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const selected = findRisk(root, selectedId) ?? root;
  const types = riskTypes.data ?? [];

  const run = async (action: Promise<unknown>) => {
    setError(null);
    try {
      await action;
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <Stack gap="md">
      <ScenarioSettings scope={scope} scenario={scenario} readOnly={readOnly} />
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="xs">
            <Title order={6} mb={4}>
              Risks
            </Title>
            {root ? (
              <RiskTree
                root={root}
                riskTypes={types}
                selectedId={selected?.id ?? null}
                readOnly={readOnly}
                onSelect={(risk) => setSelectedId(risk.id)}
                onAddChild={(parent, riskType) =>
                  void run(actions.addRisk.mutateAsync({ scenarioId: scenario.id, parentRisk: parent.id, riskType }))
                }
                onRemove={(risk) => {
                  if (risk.id === selectedId) setSelectedId(root.id);
                  void run(actions.removeRisk.mutateAsync({ scenarioId: scenario.id, riskId: risk.id }));
                }}
              />
            ) : (
              <Text size="sm" c="dimmed">
                This scenario has no risks (the version has no risk types).
              </Text>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder p="xs">
            {selected ? (
              <RiskStateForm
                scope={scope}
                scenarioId={scenario.id}
                risk={selected}
                riskType={types.find((t) => t.name.toLowerCase() === selected.type.name.toLowerCase())}
                readOnly={readOnly}
              />
            ) : (
              <Text size="sm" c="dimmed">
                Select a risk.
              </Text>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      <RatingPanel scope={scope} scenario={scenario} readOnly={readOnly} />
    </Stack>
  );
}

function ScenarioSettings({
  scope,
  scenario,
  readOnly,
}: {
  scope: ScenarioScope;
  scenario: Scenario;
  readOnly: boolean;
}) {
  const actions = useScenarioActions(scope);
  const [name, setName] = useState(scenario.name);
  const [transactionType, setTransactionType] = useState<TransactionType>(scenario.transaction_type);
  const [effectiveDate, setEffectiveDate] = useState(scenario.effective_date);
  const [expected, setExpected] = useState(scenario.expected_premium ?? '');
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    try {
      await actions.update.mutateAsync({
        id: scenario.id,
        input: {
          name: name.trim(),
          transaction_type: transactionType,
          effective_date: effectiveDate,
          expected_premium: expected.trim() === '' ? null : expected.trim(),
        },
      });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <Stack gap="xs">
      <Group align="end">
        <TextInput
          label="Scenario name"
          value={name}
          readOnly={readOnly}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Select
          label="Transaction type"
          data={TRANSACTION_TYPES.map((t) => ({ value: t, label: t }))}
          value={transactionType}
          allowDeselect={false}
          readOnly={readOnly}
          onChange={(value) => value && setTransactionType(value as TransactionType)}
        />
        <TextInput
          label="Effective date"
          type="date"
          value={effectiveDate}
          readOnly={readOnly}
          onChange={(e) => setEffectiveDate(e.currentTarget.value)}
        />
        <TextInput
          label="Expected premium"
          description="Set: a known-answer case checked when the version is published"
          value={expected}
          readOnly={readOnly}
          onChange={(e) => setExpected(e.currentTarget.value)}
        />
        {!readOnly && (
          <Button variant="default" onClick={() => void save()} loading={actions.update.isPending}>
            Save scenario
          </Button>
        )}
      </Group>
      {error && <Alert color="red">{error}</Alert>}
    </Stack>
  );
}
