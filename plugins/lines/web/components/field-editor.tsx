import { Button, Checkbox, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { mapServerFormErrors, noSpace, required, validateForm, type FormRule } from '@atrium/sdk';
import {
  FIELD_TYPES,
  type FieldFormat,
  type FieldOption,
  type FieldValues,
  type RiskField,
} from '../catalog/risk-types-api.js';
import { ServerMessage } from './shared.js';

interface FormState {
  name: string;
  label: string;
  type: string;
  default: string;
  source: string;
  required: boolean;
  format: string | null;
  /** Enum options, one a line: `value` or `value | label`. */
  options: string;
  formula: string;
}

const fromField = (f: RiskField | null): FormState => ({
  name: f?.name ?? '',
  label: f?.label ?? '',
  type: f?.type ?? 'string',
  default: f?.default ?? '',
  source: f?.source ?? '',
  required: f?.required ?? false,
  format: f?.formatId ? String(f.formatId) : null,
  options: (f?.options ?? [])
    .map((o) => (o.label && o.label !== o.value ? `${o.value} | ${o.label}` : o.value))
    .join('\n'),
  formula: f?.formula ?? '',
});

export function parseOptions(text: string): FieldOption[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [value, ...label] = line.split('|');
      const option: FieldOption = { value: value!.trim() };
      if (label.length) option.label = label.join('|').trim();
      return option;
    });
}

const numeric: FormRule = {
  name: 'decimal',
  check: (value, field) =>
    typeof value === 'string' && value.trim() !== '' && !/^-?\d+(\.\d+)?$/.test(value.trim())
      ? `${field} must be a number.`
      : null,
};

/** The body the server gets: only what the type uses. */
export function toFieldValues(state: FormState): FieldValues {
  const isComputed = state.type === 'computed';
  return {
    name: state.name.trim(),
    label: state.label.trim(),
    type: state.type,
    default_value: isComputed || state.default.trim() === '' ? null : state.default.trim(),
    source: state.source.trim() || null,
    required: state.required,
    format_id: state.format ? Number(state.format) : null,
    options: state.type === 'enum' ? parseOptions(state.options) : null,
    formula: isComputed ? state.formula.trim() : null,
  };
}

function DefaultInput({
  state,
  set,
  error,
}: {
  state: FormState;
  set(change: Partial<FormState>): void;
  error?: string;
}) {
  const common = { label: 'Default', value: state.default, error };
  switch (state.type) {
    case 'date':
      return <TextInput {...common} type="date" onChange={(e) => set({ default: e.currentTarget.value })} />;
    case 'boolean':
      return (
        <Select
          {...common}
          clearable
          data={[
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
          value={state.default || null}
          onChange={(value) => set({ default: value ?? '' })}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          clearable
          data={[...new Set(parseOptions(state.options).map((o) => o.value))]}
          value={state.default || null}
          onChange={(value) => set({ default: value ?? '' })}
        />
      );
    case 'computed':
      return null;
    default:
      return (
        <TextInput
          {...common}
          inputMode={state.type === 'number' ? 'decimal' : undefined}
          onChange={(e) => set({ default: e.currentTarget.value })}
        />
      );
  }
}

/**
 * The field editor: name, label, type (date, boolean, string, number, enum, computed), default,
 * source, required, format (the formats that fit the type) and, by type, enum options or a formula.
 * The spec's form rules run first; the server's errors land on the field their pointer names.
 */
export function FieldEditor({
  field,
  formats,
  readOnly = false,
  onCancel,
  onSave,
}: {
  field: RiskField | null;
  /** A non-draft version: shown, not editable. */
  readOnly?: boolean;
  formats: FieldFormat[];
  onCancel(): void;
  onSave(values: FieldValues): Promise<unknown>;
}) {
  const [state, setState] = useState<FormState>(() => fromField(field));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setState(fromField(field)), [field]);
  const set = (change: Partial<FormState>) => setState((current) => ({ ...current, ...change }));
  const fitting = formats.filter((f) => f.fieldTypes.length === 0 || f.fieldTypes.includes(state.type));

  async function submit() {
    const local = validateForm(state as unknown as Record<string, unknown>, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
      type: { label: 'Type', rules: [required()] },
      ...(state.type === 'number' ? { default: { label: 'Default', rules: [numeric] } } : {}),
      ...(state.type === 'enum' ? { options: { label: 'Options', rules: [required()] } } : {}),
      ...(state.type === 'computed' ? { formula: { label: 'Formula', rules: [required()] } } : {}),
    }) as Record<string, string>;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await onSave(toFieldValues(state));
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      const f = mapped.fields;
      setErrors({ ...f, default: f.default_value ?? f.default ?? '', format: f.format_id ?? '' });
      setFormError(mapped.formError ? [mapped.formError, ...mapped.formDetails].join('\n') : null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs" aria-label="Field editor" component="section">
      <Title order={4}>{field ? `${readOnly ? 'Field' : 'Edit field'} ${field.name}` : 'New field'}</Title>
      <ServerMessage message={formError} />
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="xs">
          <Group grow align="flex-start">
            <TextInput
              label="Name"
              required
              value={state.name}
              error={errors.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
            />
            <TextInput
              label="Label"
              required
              value={state.label}
              error={errors.label}
              onChange={(e) => set({ label: e.currentTarget.value })}
            />
            <Select
              label="Type"
              required
              allowDeselect={false}
              data={[...FIELD_TYPES]}
              value={state.type}
              error={errors.type}
              onChange={(type) => set({ type: type ?? 'string', default: '', format: null })}
            />
          </Group>
          {state.type === 'enum' && (
            <Textarea
              label="Options"
              description="One a line: value, or value | label"
              resize="vertical"
              rows={4}
              value={state.options}
              error={errors.options}
              onChange={(e) => set({ options: e.currentTarget.value })}
            />
          )}
          {state.type === 'computed' && (
            <Textarea
              label="Formula"
              resize="vertical"
              rows={3}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={state.formula}
              error={errors.formula}
              onChange={(e) => set({ formula: e.currentTarget.value })}
            />
          )}
          <Group grow align="flex-start">
            <DefaultInput state={state} set={set} error={errors.default || undefined} />
            <TextInput
              label="Source"
              value={state.source}
              error={errors.source}
              onChange={(e) => set({ source: e.currentTarget.value })}
            />
            <Select
              label="Format"
              clearable
              data={fitting.map((f) => ({ value: String(f.id), label: f.label }))}
              value={state.format}
              error={errors.format || undefined}
              onChange={(format) => set({ format })}
            />
          </Group>
          <Checkbox
            label="Required"
            checked={state.required}
            onChange={(e) => set({ required: e.currentTarget.checked })}
          />
        </Stack>
      </fieldset>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {readOnly ? 'Close' : 'Cancel'}
        </Button>
        {!readOnly && (
          <Button loading={busy} onClick={submit}>
            Save field
          </Button>
        )}
      </Group>
    </Stack>
  );
}
