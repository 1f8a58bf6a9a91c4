import { Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { mapServerFormErrors, noSpace, required, useApiClient, useHostServices, validateForm } from '@atrium/sdk';
import { asRecord, num } from '../catalog/api-shared.js';
import { createProduct, flattenProducts, useLinesChanged, type Product } from '../catalog/lines-api.js';
import { FormModal, formErrorText } from './form-modal.js';
import { NameLabelInputs } from './name-label-inputs.js';

/** Products nest 3 levels (spec "Business constants": product tree depth 3). */
export const PRODUCT_TREE_DEPTH = 3;

function depthOf(product: Product, all: Product[]): number {
  let depth = 1;
  let parent = all.find((p) => p.id === product.parentProductId);
  while (parent) {
    depth += 1;
    parent = all.find((p) => p.id === parent!.parentProductId);
  }
  return depth;
}

/** "Add product": a product of the line, or a child of one of its products (up to 3 levels). */
export function ProductFormModal({
  opened,
  lineId,
  products,
  onClose,
  onCreated,
}: {
  opened: boolean;
  lineId: number;
  products: Product[];
  onClose(): void;
  onCreated(versionId: number | null): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useLinesChanged();
  const all = flattenProducts(products);
  const parents = all.filter((p) => depthOf(p, all) < PRODUCT_TREE_DEPTH);
  const [values, setValues] = useState({ name: '', label: '', parent: null as string | null, effective_date: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const local = validateForm(values, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
      effective_date: { label: 'Effective date', rules: [required()] },
    });
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const created = asRecord(
        await createProduct(api, {
          name: values.name.trim(),
          label: values.label.trim(),
          line_id: lineId,
          parent_product_id: values.parent ? Number(values.parent) : null,
          effective_date: values.effective_date,
        }),
      );
      await changed();
      services.showToast({ message: `Product '${values.name.trim()}' created.`, kind: 'success' });
      const versions = Array.isArray(created.versions) ? created.versions : [];
      onCreated(num(asRecord(versions[0]).id) ?? num(created.version_id) ?? null);
      setValues({ name: '', label: '', parent: null, effective_date: '' });
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      setErrors({ ...mapped.fields, parent: mapped.fields.parent_product_id ?? '' });
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal opened={opened} onClose={onClose} title="Add product" formError={formError} busy={busy} onSave={submit}>
      <NameLabelInputs values={values} errors={errors} onChange={setValues} />
      <Select
        label="Parent product"
        placeholder="None (a product of the line)"
        clearable
        data={parents.map((p) => ({ value: String(p.id), label: p.label ?? p.name }))}
        value={values.parent}
        error={errors.parent || undefined}
        onChange={(parent) => setValues({ ...values, parent })}
      />
      <TextInput
        type="date"
        label="Effective date"
        required
        value={values.effective_date}
        error={errors.effective_date}
        onChange={(e) => setValues({ ...values, effective_date: e.currentTarget.value })}
      />
    </FormModal>
  );
}
