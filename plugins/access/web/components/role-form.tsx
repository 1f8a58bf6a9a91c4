import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { mapServerFormErrors, REQUIRED_MESSAGE, type ServerFormErrors } from '@atrium/sdk';

export interface RoleDraft {
  name: string;
  gen2_role: string;
}

/** Create or rename a role; the server's errors land on the field their pointer names. */
export function RoleFormModal({
  title,
  initial,
  opened,
  onClose,
  onSubmit,
}: {
  title: string;
  initial: RoleDraft;
  opened: boolean;
  onClose(): void;
  onSubmit(values: { name: string; gen2_role: string | null }): Promise<unknown>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ServerFormErrors | null>(null);
  const [busy, setBusy] = useState(false);
  const [opening, setOpening] = useState(opened);
  if (opened !== opening) {
    // Each opening starts from the values it was given.
    setOpening(opened);
    if (opened) {
      setValues(initial);
      setErrors(null);
    }
  }

  async function submit() {
    if (!values.name.trim()) {
      setErrors({ fields: { name: REQUIRED_MESSAGE }, formError: null, formDetails: [] });
      return;
    }
    setBusy(true);
    try {
      await onSubmit({ name: values.name.trim(), gen2_role: values.gen2_role.trim() || null });
      onClose();
    } catch (error) {
      setErrors(mapServerFormErrors(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          {errors?.formError && (
            <Alert color="red" role="alert">
              {errors.formError} {errors.formDetails.join(' ')}
            </Alert>
          )}
          <TextInput
            label="Role name"
            required
            withAsterisk={false}
            data-autofocus
            value={values.name}
            error={errors?.fields.name}
            onChange={(event) => setValues({ ...values, name: event.currentTarget.value })}
          />
          <TextInput
            label="Classic role (gen2_role)"
            description="The classic system's role this role maps to, if any."
            value={values.gen2_role}
            error={errors?.fields.gen2_role}
            onChange={(event) => setValues({ ...values, gen2_role: event.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
