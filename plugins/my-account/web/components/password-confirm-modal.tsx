import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { REQUIRED_MESSAGE } from '@atrium/sdk';
import { failureMessage } from '../account-api.js';

/**
 * Changing a factor asks for the password again. `onConfirm` gets it and runs the change; a refusal
 * (wrong password, a lockout) stays in the dialog.
 */
export function PasswordConfirmModal({
  opened,
  title,
  description,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm(password: string): Promise<void>;
  onClose(): void;
}) {
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const close = () => {
    setPassword('');
    setFieldError(null);
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setFieldError(REQUIRED_MESSAGE);
      return;
    }
    setWorking(true);
    setFailure(null);
    try {
      await onConfirm(password);
      setPassword('');
    } catch (error) {
      setFailure(failureMessage(error, 'The change was not saved.'));
    } finally {
      setWorking(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Text size="sm">{description}</Text>
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            data-autofocus
            value={password}
            error={fieldError}
            onChange={(event) => setPassword(event.currentTarget.value)}
            onBlur={() => setFieldError(password ? null : REQUIRED_MESSAGE)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={working}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
