import { Checkbox, Group, Select, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { mapServerFormErrors, noSpace, required, validateForm } from '@atrium/sdk';
import {
  ITEM_PRESENCES,
  ITEM_TYPES,
  LIMIT_KINDS,
  type ItemValues,
  type ItemLimit,
  type LimitValues,
  type RiskItem,
} from '../catalog/risk-types-api.js';
import { FormModal, formErrorText } from './form-modal.js';
import { NameLabelInputs } from './name-label-inputs.js';

function useServerErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const fail = (error: unknown) => {
    const mapped = mapServerFormErrors(error);
    setErrors(mapped.fields);
    setFormError(formErrorText(mapped));
  };
  return { errors, setErrors, formError, setFormError, fail };
}

const emptyItem = (item: RiskItem | null): ItemValues => ({
  name: item?.name ?? '',
  label: item?.label ?? '',
  presence: item?.presence ?? 'optional',
  type: item?.type ?? 'coverage',
  fully_earned: item?.fullyEarned ?? false,
});

/** Create or edit a risk item: name, label, presence, type, fully earned. */
export function ItemFormModal({
  opened,
  item,
  onClose,
  onSave,
}: {
  opened: boolean;
  item: RiskItem | null;
  onClose(): void;
  onSave(values: ItemValues): Promise<unknown>;
}) {
  const [values, setValues] = useState<ItemValues>(emptyItem(item));
  const { errors, setErrors, formError, setFormError, fail } = useServerErrors();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setValues(emptyItem(item));
      setErrors({});
      setFormError(null);
    }
  }, [opened, item, setErrors, setFormError]);

  async function submit() {
    const local = validateForm(values as unknown as Record<string, unknown>, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
    }) as Record<string, string>;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await onSave({ ...values, name: values.name.trim(), label: values.label.trim() });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={item ? `Edit item ${item.name}` : 'New item'}
      formError={formError}
      busy={busy}
      onSave={submit}
    >
      <NameLabelInputs values={values} errors={errors} onChange={setValues} />
      <Select
        label="Presence"
        allowDeselect={false}
        data={[...ITEM_PRESENCES]}
        value={values.presence}
        error={errors.presence}
        onChange={(presence) => setValues({ ...values, presence: presence ?? 'optional' })}
      />
      <Select
        label="Type"
        allowDeselect={false}
        data={[...ITEM_TYPES]}
        value={values.type}
        error={errors.type}
        onChange={(type) => setValues({ ...values, type: type ?? 'coverage' })}
      />
      <Checkbox
        label="Fully earned"
        checked={values.fully_earned}
        onChange={(e) => setValues({ ...values, fully_earned: e.currentTarget.checked })}
      />
    </FormModal>
  );
}

const emptyLimit: LimitValues = {
  kind: 'limit',
  name: '',
  label: '',
  default_value: null,
  min_value: null,
  max_value: null,
};
const decimalText = /^-?\d+(\.\d+)?$/;

/** Add a limit or deductible under an item, or edit one (`limit` given); amounts are decimal strings, never floats. */
export function LimitFormModal({
  opened,
  itemName,
  limit = null,
  onClose,
  onSave,
}: {
  opened: boolean;
  itemName: string;
  limit?: ItemLimit | null;
  onClose(): void;
  onSave(values: LimitValues): Promise<unknown>;
}) {
  const [values, setValues] = useState<LimitValues>(emptyLimit);
  const { errors, setErrors, formError, setFormError, fail } = useServerErrors();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setValues(
        limit
          ? {
              kind: limit.kind,
              name: limit.name,
              label: limit.label,
              default_value: limit.defaultValue,
              min_value: limit.minValue,
              max_value: limit.maxValue,
            }
          : emptyLimit,
      );
      setErrors({});
      setFormError(null);
    }
  }, [opened, limit, setErrors, setFormError]);
  const amount = (key: 'default_value' | 'min_value' | 'max_value', label: string) => (
    <TextInput
      label={label}
      inputMode="decimal"
      value={values[key] ?? ''}
      error={errors[key]}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value.trim() || null })}
    />
  );

  async function submit() {
    const local = validateForm(values as unknown as Record<string, unknown>, {
      label: { label: 'Label', rules: [required()] },
    }) as Record<string, string>;
    for (const [key, label] of [
      ['default_value', 'Default'],
      ['min_value', 'Minimum'],
      ['max_value', 'Maximum'],
    ] as const)
      if (values[key] !== null && !decimalText.test(values[key]!)) local[key] = `${label} must be a number.`;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      // An empty name is the item's main limit or deductible.
      await onSave({ ...values, name: values.name.trim() });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={
        limit
          ? `Edit ${limit.kind} ${limit.label || limit.name} of ${itemName}`
          : `Add limit or deductible to ${itemName}`
      }
      formError={formError}
      busy={busy}
      onSave={submit}
    >
      <Select
        label="Kind"
        allowDeselect={false}
        data={[...LIMIT_KINDS]}
        value={values.kind}
        onChange={(kind) => setValues({ ...values, kind: kind ?? 'limit' })}
      />
      <TextInput
        label="Name"
        value={values.name}
        error={errors.name}
        onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
      />
      <TextInput
        label="Label"
        required
        value={values.label}
        error={errors.label}
        onChange={(e) => setValues({ ...values, label: e.currentTarget.value })}
      />
      <Group grow>
        {amount('default_value', 'Default')}
        {amount('min_value', 'Minimum')}
        {amount('max_value', 'Maximum')}
      </Group>
    </FormModal>
  );
}
