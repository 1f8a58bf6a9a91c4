import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { mapServerFormErrors, required, validateValue } from '@atrium/sdk';
import { FormModal, formErrorText } from './form-modal.js';

/**
 * A one-field form for a version's effective date (create a version, edit its date). The server's
 * errors land on the field when their pointer names it, else above the form in full.
 */
export function DateFormModal({
  opened,
  title,
  initial,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  initial: string;
  onClose(): void;
  onSubmit(effectiveDate: string): Promise<unknown>;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setValue(initial);
      setError(null);
      setFormError(null);
    }
  }, [opened, initial]);

  async function submit() {
    const message = validateValue(value, 'Effective date', [required()]);
    setError(message);
    if (message) return;
    setBusy(true);
    try {
      await onSubmit(value);
    } catch (failure) {
      const mapped = mapServerFormErrors(failure);
      setError(mapped.fields.effective_date ?? mapped.fields.effectiveDate ?? null);
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormModal opened={opened} onClose={onClose} title={title} formError={formError} busy={busy} onSave={submit}>
      <TextInput
        type="date"
        label="Effective date"
        required
        value={value}
        error={error}
        onChange={(e) => setValue(e.currentTarget.value)}
      />
    </FormModal>
  );
}
