import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useHostServices } from '@atrium/sdk';
import { lazy, Suspense, useMemo, useState } from 'react';
import { errorText } from '../scenarios/error-text.js';
import {
  useCalculationActions,
  useCalculations,
  useRatingContext,
  type Calculation,
  type CalculationScope,
} from './calculations-api.js';
import { completionEntries } from './formula-completion.js';
import { formulaProblemsOf, type FormulaProblem } from './formula-problem.js';

const FormulaEditor = lazy(() => import('./formula-editor.js'));

export interface CalculationsPanelProps {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
}

/**
 * The calculations of a risk type, in the order they run: move up/down, delete, restore, and the
 * formula editor (Monaco, loaded on first open) with completion of the names a formula may use and
 * the server's validation problems marked where they are, their messages listed below.
 */
export default function CalculationsPanel({ productId, versionId, riskTypeId, readOnly }: CalculationsPanelProps) {
  const scope: CalculationScope = { productId, versionId, riskTypeId };
  const [showDeleted, setShowDeleted] = useState(false);
  const [open, setOpen] = useState<Calculation | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const calculations = useCalculations(scope, showDeleted);
  const actions = useCalculationActions(scope);

  if (open !== null)
    return (
      <CalculationEditor
        key={open === 'new' ? 'new' : open.id}
        scope={scope}
        calculation={open === 'new' ? null : open}
        readOnly={readOnly || (open !== 'new' && open.deleted)}
        onClose={() => setOpen(null)}
      />
    );

  const run = (action: Promise<unknown>) => {
    setError(null);
    action.catch((failure: unknown) => setError(errorText(failure)));
  };
  const live = (calculations.data ?? []).filter((c) => !c.deleted);
  const move = (index: number, by: -1 | 1) => {
    const ids = live.map((c) => c.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    run(actions.reorder.mutateAsync(ids));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Switch label="Show deleted" checked={showDeleted} onChange={(e) => setShowDeleted(e.currentTarget.checked)} />
        {!readOnly && <Button onClick={() => setOpen('new')}>New calculation</Button>}
      </Group>
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {calculations.isPending && <Loader size="sm" aria-label="Loading calculations" />}
      {calculations.isError && <Alert color="red">{errorText(calculations.error)}</Alert>}
      {calculations.data && calculations.data.length === 0 && (
        <Text c="dimmed">This risk type has no calculations.</Text>
      )}
      {calculations.data && calculations.data.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Calculations" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Formula</Table.Th>
                <Table.Th>Item</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {calculations.data.map((calculation) => {
                const index = live.indexOf(calculation);
                return (
                  <Table.Tr key={calculation.id} style={calculation.deleted ? { opacity: 0.6 } : undefined}>
                    <Table.Td>{index >= 0 ? index + 1 : '—'}</Table.Td>
                    <Table.Td>
                      <Button variant="subtle" size="compact-sm" onClick={() => setOpen(calculation)}>
                        {calculation.name}
                      </Button>
                      {calculation.inheritanceStatus && calculation.inheritanceStatus !== 'own' && (
                        <Badge ml="xs" size="xs" variant="light">
                          {calculation.inheritanceStatus}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td style={{ maxWidth: 420 }}>
                      <Code
                        style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', display: 'block' }}
                      >
                        {calculation.calculation}
                      </Code>
                    </Table.Td>
                    <Table.Td>{calculation.riskItem ?? ''}</Table.Td>
                    <Table.Td>
                      {!readOnly && calculation.deleted && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={() => run(actions.restore.mutateAsync(calculation.id))}
                        >
                          Restore
                        </Button>
                      )}
                      {!readOnly && !calculation.deleted && (
                        <Group gap={4}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${calculation.name} up`}
                            disabled={index <= 0}
                            onClick={() => move(index, -1)}
                          >
                            ↑
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Move ${calculation.name} down`}
                            disabled={index >= live.length - 1}
                            onClick={() => move(index, 1)}
                          >
                            ↓
                          </ActionIcon>
                          <Button
                            size="compact-xs"
                            color="red"
                            variant="subtle"
                            onClick={() => run(actions.remove.mutateAsync(calculation.id))}
                          >
                            Delete
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

interface EditorProps {
  scope: CalculationScope;
  calculation: Calculation | null;
  readOnly: boolean;
  onClose(): void;
}

function CalculationEditor({ scope, calculation, readOnly, onClose }: EditorProps) {
  const { showToast } = useHostServices();
  const actions = useCalculationActions(scope);
  const context = useRatingContext(scope);
  const [current, setCurrent] = useState(calculation);
  const [name, setName] = useState(calculation?.name ?? '');
  const [label, setLabel] = useState(calculation?.label ?? '');
  const [formula, setFormula] = useState(calculation?.calculation ?? '');
  const [roundPlaces, setRoundPlaces] = useState<number | null>(calculation?.roundPlaces ?? null);
  const [roundMode, setRoundMode] = useState<string | null>(calculation?.roundMode ?? null);
  const [problems, setProblems] = useState<FormulaProblem[]>([]);
  const [error, setError] = useState<string | null>(null);

  const completions = useMemo(
    () => (context.data ? completionEntries(context.data, current?.name ?? null) : []),
    [context.data, current?.name],
  );

  const save = async () => {
    setError(null);
    setProblems([]);
    const input = {
      name: name.trim(),
      label: label.trim(),
      calculation: formula,
      round_places: roundPlaces,
      round_mode: roundPlaces === null ? null : (roundMode ?? 'half-up'),
    };
    try {
      const saved = current
        ? await actions.save.mutateAsync({ id: current.id, input })
        : await actions.create.mutateAsync(input);
      setCurrent(saved);
      showToast({ kind: 'success', message: `Calculation '${saved.name}' saved.` });
    } catch (failure) {
      const found = formulaProblemsOf(failure);
      setProblems(found);
      if (found.length === 0) setError(errorText(failure));
    }
  };

  return (
    <Stack gap="sm" aria-label="Calculation editor">
      <Group justify="space-between">
        <Title order={4}>{current ? `Calculation ${current.name}` : 'New calculation'}</Title>
        <Button variant="subtle" onClick={onClose}>
          Back to calculations
        </Button>
      </Group>
      {readOnly && <Alert color="gray">This version is not a draft: its calculations are read-only.</Alert>}
      <Group align="end">
        <TextInput
          label="Name"
          required
          value={name}
          readOnly={readOnly}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <TextInput label="Label" value={label} readOnly={readOnly} onChange={(e) => setLabel(e.currentTarget.value)} />
        <NumberInput
          label="Round to places"
          placeholder="no rounding"
          min={0}
          max={12}
          allowDecimal={false}
          value={roundPlaces ?? ''}
          readOnly={readOnly}
          onChange={(value) => setRoundPlaces(typeof value === 'number' ? value : null)}
        />
        <Select
          label="Rounding mode"
          data={['half-up', 'half-even', 'down', 'up']}
          value={roundMode}
          disabled={roundPlaces === null}
          readOnly={readOnly}
          onChange={setRoundMode}
        />
      </Group>
      <Text size="sm" fw={500}>
        Formula
      </Text>
      <Suspense fallback={<Loader size="sm" aria-label="Loading editor" />}>
        <FormulaEditor
          modelId={current ? String(current.id) : 'new'}
          value={formula}
          onChange={setFormula}
          readOnly={readOnly}
          completions={completions}
          problems={problems}
        />
      </Suspense>
      {context.isError && (
        <Text size="xs" c="dimmed">
          Names for completion could not be read: {errorText(context.error)}
        </Text>
      )}
      {problems.length > 0 && (
        <Alert color="red" title="The formula was not saved">
          <Stack gap={2}>
            {problems.map((problem, i) => (
              <Text key={i} size="sm" data-testid="formula-problem">
                {problem.line !== null ? `Line ${problem.line}, column ${problem.column}: ` : ''}
                {problem.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {error && <Alert color="red">{error}</Alert>}
      {!readOnly && (
        <Group>
          <Button
            onClick={() => void save()}
            loading={actions.save.isPending || actions.create.isPending}
            disabled={name.trim() === '' || formula.trim() === ''}
          >
            Save calculation
          </Button>
        </Group>
      )}
    </Stack>
  );
}
