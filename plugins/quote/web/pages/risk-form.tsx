import { Checkbox, Group, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { riskEditButtonRowSlot, SlotOutlet, type ActingPluginChange } from '@atrium/sdk';
import type { FlowField, FlowRiskType } from '../../shared/flow.js';
import type { ElementState, RiskNode } from '../quote-api.js';
import { PluginChanges } from './plugin-changes.js';

export type Answers = Record<string, unknown>;
export interface ItemDraft {
  name: string;
  limit: string | null;
  deductible: string | null;
}

/** The rules' element name of a field: `field` on the root risk, `type#id.field` below it. */
export const elementName = (rootId: number, risk: RiskNode, field: string) =>
  risk.id === rootId ? field : `${risk.risk_state.type.name}#${risk.id}.${field}`;

const label = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * One risk's answers with the rules' UI controls applied: hidden fields are not shown, readonly ones
 * are disabled, mandatory ones are required, options are narrowed, and the validation message (the
 * rules' or the server's) is shown on the field.
 */
export function RiskFields({
  type,
  risk,
  rootId,
  answers,
  controls,
  errors,
  readOnly,
  onChange,
  onCheck,
}: {
  type: FlowRiskType;
  risk: RiskNode;
  rootId: number;
  answers: Answers;
  controls: Map<string, ElementState>;
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (field: string, value: unknown) => void;
  onCheck: (field: string, value: unknown) => void;
}) {
  return (
    <Stack gap="sm">
      {type.fields.map((field) => {
        const state = controls.get(elementName(rootId, risk, field.name));
        if (state && !state.visible) return null;
        const error =
          errors[`${risk.id}.${field.name}`] ??
          (state && !state.isValid ? (state.validationMessage ?? undefined) : undefined);
        return (
          <FieldInput
            key={field.name}
            field={field}
            value={answers[field.name]}
            required={!!field.required || !!state?.mandatory}
            disabled={readOnly || !!state?.readonly}
            options={(field.options ?? []).filter(
              (o) =>
                !state?.optionsBlacklist?.includes(o) &&
                (!state?.optionsWhitelist || state.optionsWhitelist.includes(o)),
            )}
            error={error}
            onChange={(v) => onChange(field.name, v)}
            onCheck={(v) => onCheck(field.name, v)}
          />
        );
      })}
    </Stack>
  );
}

function FieldInput({
  field,
  value,
  required,
  disabled,
  options,
  error,
  onChange,
  onCheck,
}: {
  field: FlowField;
  value: unknown;
  required: boolean;
  disabled: boolean;
  options: string[];
  error?: string;
  onChange: (value: unknown) => void;
  onCheck: (value: unknown) => void;
}) {
  const common = { label: field.label, required, disabled, error };
  switch (field.type) {
    case 'enum':
      return (
        <Select
          {...common}
          data={options.map((o) => ({ value: o, label: label(o) }))}
          value={typeof value === 'string' ? value : null}
          onChange={(v) => {
            onChange(v);
            onCheck(v);
          }}
          clearable={!required}
          maw={360}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={field.label + (required ? ' *' : '')}
          disabled={disabled}
          error={error}
          checked={value === true}
          onChange={(e) => {
            onChange(e.currentTarget.checked);
            onCheck(e.currentTarget.checked);
          }}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(v === '' ? null : v)}
          onBlur={() => onCheck(value ?? null)}
          allowDecimal
          maw={240}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || null)}
          onBlur={() => onCheck(value ?? null)}
          maw={240}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={() => onCheck(value ?? null)}
          maw={360}
        />
      );
  }
}

/** The risk's coverages: required ones always on, limits and deductibles from their options. */
export function RiskItems({
  type,
  items,
  readOnly,
  onChange,
}: {
  type: FlowRiskType;
  items: ItemDraft[];
  readOnly: boolean;
  onChange: (items: ItemDraft[]) => void;
}) {
  if (type.items.length === 0) return null;
  const set = (name: string, patch: Partial<ItemDraft> | null) => {
    const others = items.filter((i) => i.name !== name);
    const current = items.find((i) => i.name === name);
    if (patch === null) return onChange(others);
    const def = type.items.find((i) => i.name === name)!;
    const next = {
      name,
      limit: current?.limit ?? def.limit?.default ?? null,
      deductible: current?.deductible ?? def.deductible?.default ?? null,
      ...patch,
    };
    onChange(type.items.flatMap((d) => (d.name === name ? [next] : others.filter((o) => o.name === d.name))));
  };
  return (
    <Stack gap="xs">
      <Text fw={600}>Coverages</Text>
      {type.items.map((def) => {
        const current = items.find((i) => i.name === def.name);
        return (
          <Group key={def.name} align="flex-end" gap="md">
            <Checkbox
              label={def.label}
              checked={!!current}
              disabled={readOnly || def.presence === 'required'}
              onChange={(e) => set(def.name, e.currentTarget.checked ? {} : null)}
              w={260}
            />
            {current && def.limit ? (
              def.limit.options ? (
                <Select
                  label={def.limit.label}
                  data={def.limit.options}
                  value={current.limit}
                  disabled={readOnly}
                  onChange={(v) => set(def.name, { limit: v })}
                  w={180}
                />
              ) : (
                <NumberInput
                  label={def.limit.label}
                  value={current.limit ?? ''}
                  disabled={readOnly}
                  min={def.limit.min ? Number(def.limit.min) : undefined}
                  max={def.limit.max ? Number(def.limit.max) : undefined}
                  onChange={(v) => set(def.name, { limit: v === '' ? null : String(v) })}
                  w={180}
                />
              )
            ) : null}
            {current && def.deductible ? (
              <Select
                label={def.deductible.label}
                data={def.deductible.options ?? []}
                value={current.deductible}
                disabled={readOnly}
                onChange={(v) => set(def.name, { deductible: v })}
                w={180}
              />
            ) : null}
          </Group>
        );
      })}
    </Stack>
  );
}

/**
 * The `quote:risk-edit:button-row` slot under one risk (issue 22): plugins see the risk's answers
 * and change them only through `onUpdate`, the page's own save (same request, permission and
 * validation as the user's edit), or add child risks through `onCreate` (the page's own add and save).
 */
export function RiskButtonRow({
  quoteNumber,
  type,
  risk,
  answers,
  readOnly,
  childTypes,
  onUpdate,
  onCreate,
}: {
  quoteNumber: string;
  type: FlowRiskType;
  risk: RiskNode;
  answers: Answers;
  readOnly: boolean;
  /** The risk types that go under this one. */
  childTypes: FlowRiskType[];
  /** `plugin`: the plugin the change is made for (audited with its patch). */
  onUpdate: (answers: Answers, plugin?: ActingPluginChange) => Promise<void>;
  /** Adds a child risk with these answers (removed again if they are refused); the new risk's id. */
  onCreate: (riskType: string, answers: Answers, plugin?: ActingPluginChange) => Promise<number>;
}) {
  return (
    <>
      <SlotOutlet
        slot={riskEditButtonRowSlot}
        context={{
          quoteNumber,
          riskId: risk.id,
          riskType: type.name,
          fields: type.fields.map((f) => f.name),
          risk: { field_answers: answers },
          readOnly,
          updateRisk: onUpdate,
          childRiskTypes: childTypes.map((t) => ({
            name: t.name,
            label: t.label,
            fields: t.fields.map((f) => f.name),
          })),
          createRisk: onCreate,
        }}
      />
      <PluginChanges quoteNumber={quoteNumber} riskId={risk.id} type={type} />
    </>
  );
}
