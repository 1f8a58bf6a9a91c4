import { ActionIcon, Alert, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { useEffect, useState } from 'react';
import { errorText } from './error-text.js';
import {
  useRiskTypeDefinition,
  useScenarioActions,
  validateAnswer,
  type Answer,
  type FieldDef,
  type ItemDef,
  type RiskItemState,
  type RiskNode,
  type RiskTypeDef,
  type ScenarioScope,
} from './scenarios-api.js';

/**
 * The state of one risk of a scenario: an input per field of its type (by field type), each answer
 * checked by the server's validate-answer call when the input loses focus (its message shown under
 * the input), and the risk's items with their limit and deductible. Saved with PUT risks/{r}/.
 * When the risk type's definition cannot be read, the answers already on the risk are still editable.
 */
export interface RiskStateFormProps {
  scope: ScenarioScope;
  scenarioId: number;
  risk: RiskNode;
  riskType: RiskTypeDef | undefined;
  readOnly: boolean;
}

export function RiskStateForm(props: RiskStateFormProps) {
  // A new form per risk, so edits never leak from one risk to another.
  return <RiskStateFormBody key={`${props.scenarioId}:${props.risk.id}`} {...props} />;
}

const answerText = (answer: Answer | undefined): string =>
  answer === null || answer === undefined ? '' : String(answer);

/** What is sent for an input's text: empty is null (the field's default applies); booleans as booleans. */
export function answerOf(field: Pick<FieldDef, 'type'>, text: string): Answer {
  if (text.trim() === '') return null;
  if (field.type === 'boolean') return text === 'true';
  return text.trim();
}

function RiskStateFormBody({ scope, scenarioId, risk, riskType, readOnly }: RiskStateFormProps) {
  const api = useApiClient();
  const definition = useRiskTypeDefinition(scope, riskType?.id ?? null);
  const actions = useScenarioActions(scope);
  const [answers, setAnswers] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(risk.field_answers).map(([k, v]) => [k, answerText(v)])),
  );
  const [items, setItems] = useState<RiskItemState[]>(risk.items);
  const [messages, setMessages] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Items added or removed on the server (items/ calls) come back with the reloaded scenario.
  const itemsJson = JSON.stringify(risk.items);
  useEffect(() => setItems(JSON.parse(itemsJson) as RiskItemState[]), [itemsJson]);

  const known = definition.data?.fields ?? [];
  // Answers to fields the definition does not list (or when it could not be read) stay editable.
  const extra: FieldDef[] = Object.keys(answers)
    .filter((name) => !known.some((f) => f.name === name))
    .map((name) => ({ name, label: name, type: 'string', options: [], default: null }));
  const fields = [...known, ...extra];

  const setAnswer = (name: string, value: string) => {
    setAnswers((current) => ({ ...current, [name]: value }));
    setSaved(false);
  };

  const check = async (field: FieldDef, text: string) => {
    if (field.type === 'computed') return;
    try {
      const result = await validateAnswer(api, scope, scenarioId, risk.id, field.name, answerOf(field, text));
      setMessages((current) => {
        const next = { ...current };
        if (result.valid) delete next[field.name];
        else next[field.name] = result.message ?? 'This answer is not valid.';
        return next;
      });
    } catch (failure) {
      setMessages((current) => ({ ...current, [field.name]: errorText(failure) }));
    }
  };

  const save = async () => {
    setError(null);
    const field_answers: Record<string, Answer> = {};
    for (const field of fields) {
      if (field.type === 'computed') continue;
      if (answers[field.name] !== undefined) field_answers[field.name] = answerOf(field, answers[field.name]!);
    }
    try {
      await actions.saveRiskState.mutateAsync({ scenarioId, riskId: risk.id, state: { field_answers, items } });
      setSaved(true);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const addItem = async (name: string | null) => {
    if (!name) return;
    setError(null);
    try {
      await actions.addItem.mutateAsync({ scenarioId, riskId: risk.id, itemName: name });
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const removeItem = async (name: string) => {
    setError(null);
    try {
      await actions.removeItem.mutateAsync({ scenarioId, riskId: risk.id, itemName: name });
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const setItemAmount = (name: string, part: 'limit' | 'deductible', value: string) => {
    setItems((current) =>
      current.map((item) => (item.name === name ? { ...item, [part]: value.trim() || null } : item)),
    );
    setSaved(false);
  };

  const itemDefs: ItemDef[] = definition.data?.items ?? [];
  const addable = itemDefs.filter((def) => !items.some((item) => item.name === def.name));

  return (
    <Stack gap="sm" aria-label={`Risk ${risk.id}`}>
      <Title order={5}>
        {riskType?.label ?? risk.type.name} #{risk.id}
      </Title>
      {definition.isError && (
        <Text size="sm" c="dimmed">
          The fields of {risk.type.name} could not be read ({errorText(definition.error)}); the answers on the risk are
          shown.
        </Text>
      )}
      {fields.length === 0 && !definition.isPending && (
        <Text size="sm" c="dimmed">
          This risk type asks no questions.
        </Text>
      )}
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          value={answers[field.name] ?? ''}
          readOnly={readOnly}
          error={messages[field.name]}
          onChange={(value) => setAnswer(field.name, value)}
          onBlur={(value) => void check(field, value)}
        />
      ))}
      <Stack gap={4}>
        <Text fw={500} size="sm">
          Items
        </Text>
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            No items on this risk.
          </Text>
        )}
        {items.length > 0 && (
          <Table aria-label="Items" verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Limit</Table.Th>
                <Table.Th>Deductible</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.name}>
                  <Table.Td>{itemDefs.find((d) => d.name === item.name)?.label ?? item.name}</Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={`${item.name} limit`}
                      value={item.limit ?? ''}
                      readOnly={readOnly}
                      onChange={(e) => setItemAmount(item.name, 'limit', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={`${item.name} deductible`}
                      value={item.deductible ?? ''}
                      readOnly={readOnly}
                      onChange={(e) => setItemAmount(item.name, 'deductible', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    {!readOnly && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove item ${item.name}`}
                        onClick={() => void removeItem(item.name)}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {!readOnly && addable.length > 0 && (
          <Select
            size="xs"
            aria-label="Add item"
            placeholder="Add item…"
            data={addable.map((def) => ({ value: def.name, label: def.label }))}
            value={null}
            onChange={(value) => void addItem(value)}
          />
        )}
      </Stack>
      {error && (
        <Alert color="red" style={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}
      {!readOnly && (
        <Group>
          <Button onClick={() => void save()} loading={actions.saveRiskState.isPending}>
            Save risk
          </Button>
          {saved && (
            <Text size="sm" c="green" role="status">
              Saved.
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

interface FieldInputProps {
  field: FieldDef;
  value: string;
  readOnly: boolean;
  error: string | undefined;
  onChange(value: string): void;
  onBlur(value: string): void;
}

function FieldInput({ field, value, readOnly, error, onChange, onBlur }: FieldInputProps) {
  const common = {
    label: field.label,
    error,
    description: field.default !== null && field.type !== 'computed' ? `Default: ${field.default}` : undefined,
  };
  if (field.type === 'computed')
    return <TextInput {...common} value="computed when rated" readOnly disabled aria-label={field.label} />;
  if (field.type === 'enum' || field.type === 'boolean') {
    const data =
      field.type === 'boolean'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : field.options;
    return (
      <Select
        {...common}
        data={data}
        value={value === '' ? null : value}
        clearable
        readOnly={readOnly}
        onChange={(next) => {
          onChange(next ?? '');
          onBlur(next ?? '');
        }}
      />
    );
  }
  return (
    <TextInput
      {...common}
      type={field.type === 'date' ? 'date' : 'text'}
      inputMode={field.type === 'number' ? 'decimal' : undefined}
      value={value}
      readOnly={readOnly}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => onBlur(event.currentTarget.value)}
    />
  );
}
