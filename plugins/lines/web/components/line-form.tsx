import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { mapServerFormErrors, noSpace, required, useApiClient, useHostServices, validateForm } from '@atrium/sdk';
import { createLine, useLinesChanged } from '../catalog/lines-api.js';
import { ServerMessage } from './shared.js';

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
      setFormError(mapped.formError ? [mapped.formError, ...mapped.formDetails].join('\n') : null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="New line" centered>
      <Stack>
        <ServerMessage message={formError} />
        <TextInput
          label="Name"
          required
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} onClick={submit}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
