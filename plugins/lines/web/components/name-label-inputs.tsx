import { TextInput } from '@mantine/core';

/** The Name and Label inputs (both required) that open the forms of lines, products, risk types and items. */
export function NameLabelInputs<V extends { name: string; label: string }>({
  values,
  errors,
  onChange,
}: {
  values: V;
  errors: Record<string, string | undefined>;
  onChange(values: NoInfer<V>): void;
}) {
  return (
    <>
      <TextInput
        label="Name"
        required
        value={values.name}
        error={errors.name}
        onChange={(e) => onChange({ ...values, name: e.currentTarget.value })}
      />
      <TextInput
        label="Label"
        required
        value={values.label}
        error={errors.label}
        onChange={(e) => onChange({ ...values, label: e.currentTarget.value })}
      />
    </>
  );
}
