import { useState } from 'react';
import { mapServerFormErrors, noSpace, required, useApiClient, useHostServices, validateForm } from '@atrium/sdk';
import { createLine, useLinesChanged } from '../catalog/lines-api.js';
import { FormModal, formErrorText } from './form-modal.js';
import { NameLabelInputs } from './name-label-inputs.js';

/** "New line": name (no spaces, it is the line's key in links) and label. */
export function LineFormModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose(): void;
  onCreated(name: string): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const changed = useLinesChanged();
  const [values, setValues] = useState({ name: '', label: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const local = validateForm(values, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
    });
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await createLine(api, { name: values.name.trim(), label: values.label.trim() });
      await changed();
      services.showToast({ message: `Line '${values.name.trim()}' created.`, kind: 'success' });
      setValues({ name: '', label: '' });
      onCreated(values.name.trim());
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      setErrors(mapped.fields);
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal opened={opened} onClose={onClose} title="New line" formError={formError} busy={busy} onSave={submit}>
      <NameLabelInputs values={values} errors={errors} onChange={setValues} />
    </FormModal>
  );
}
