import { Alert, Button, Code, Group, Loader, NumberInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useHostServices } from '@atrium/sdk';
import { lazy, Suspense, useMemo, useState } from 'react';
import { RestorableList, RestorableRowName } from '../components/restorable-list.js';
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
  const calculations = useCalculations(scope, showDeleted);
  const actions = useCalculationActions(scope);

  return (
    <RestorableList
      rows={calculations}
      plural="calculations"
      columns={[
        { header: '#', cell: (_, index) => (index >= 0 ? index + 1 : '—') },
        {
          header: 'Name',
          cell: (calculation) => <RestorableRowName row={calculation} onOpen={() => setOpen(calculation)} />,
        },
        {
          header: 'Formula',
          style: { maxWidth: 420 },
          cell: (calculation) => (
            <Code style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', display: 'block' }}>
              {calculation.calculation}
            </Code>
          ),
        },
        { header: 'Item', cell: (calculation) => calculation.riskItem ?? '' },
      ]}
      readOnly={readOnly}
      showDeleted={showDeleted}
      onShowDeleted={setShowDeleted}
      newLabel="New calculation"
      onNew={() => setOpen('new')}
      actions={actions}
      editor={
        open !== null && (
          <CalculationEditor
            key={open === 'new' ? 'new' : open.id}
            scope={scope}
            calculation={open === 'new' ? null : open}
            readOnly={readOnly || (open !== 'new' && open.deleted)}
            onClose={() => setOpen(null)}
          />
        )
      }
    />
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
      <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading editor" />}>
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
