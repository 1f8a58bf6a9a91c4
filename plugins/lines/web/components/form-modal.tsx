import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ServerMessage } from './shared.js';

/**
 * The dialog every lines form uses: its title, the server's form-level message on top (what
 * `formErrorText` makes of a refusal), the inputs, then Cancel and Save (busy while saving).
 */
export function FormModal({
  opened,
  onClose,
  title,
  formError,
  busy,
  onSave,
  children,
}: {
  opened: boolean;
  onClose(): void;
  title: ReactNode;
  formError: string | null;
  busy: boolean;
  onSave(): void;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        <ServerMessage message={formError} />
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} onClick={onSave}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The part of a refusal (`mapServerFormErrors`) no input shows: its message and details, one a line. */
export function formErrorText(mapped: { formError: string | null; formDetails: string[] }): string | null {
  return mapped.formError ? [mapped.formError, ...mapped.formDetails].join('\n') : null;
}
