import { Alert, Button, Group, Modal, Table, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { isApiRequestError } from '../api-error.js';
import { batchFailureDialog, CONFIRM_CANCEL, CONFIRM_YES, deleteConfirmationMessage } from '../messages.js';

/**
 * The shared dialogs every module shows the same way (spec "Layout and navigation"): the
 * confirmation before a destructive action, the batch-failure dialog, and a failed call in place.
 */
/**
 * A button that asks the SDK's confirmation sentence first: 'Are you sure you want to <verb> this
 * <label>?' with Yes / Cancel.
 */
export function ConfirmButton({
  label,
  verb,
  onConfirm,
  disabled,
  children,
  color,
  variant = 'light',
  size,
  ariaLabel,
}: {
  label: string;
  verb: string;
  onConfirm(): Promise<unknown> | void;
  disabled?: boolean;
  children: ReactNode;
  color?: ButtonProps['color'];
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  ariaLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button
        color={color}
        variant={variant}
        size={size}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => setOpen(true)}
      >
        {children}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Confirm" centered>
        <Text>{deleteConfirmationMessage(label, verb)}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setOpen(false)}>
            {CONFIRM_CANCEL}
          </Button>
          <Button
            color={color}
            loading={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
                setOpen(false);
              }
            }}
          >
            {CONFIRM_YES}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

export interface BatchFailure {
  label: string;
  errorMessage: string;
}

/** The SDK's batch-failure dialog: 'We are sorry, batch action failed for N items out of M'. */
export function BatchFailureModal({
  failures,
  total,
  itemColumn,
  onClose,
}: {
  failures: BatchFailure[];
  total: number;
  itemColumn: string;
  onClose(): void;
}) {
  const dialog = batchFailureDialog(failures, total, { columns: [itemColumn] });
  return (
    <Modal opened={failures.length > 0} onClose={onClose} title={dialog.title} centered size="lg">
      <Text mb="sm">{dialog.message}</Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            {dialog.columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dialog.rows.map((row, index) => (
            <Table.Tr key={index}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td>{row.errorMessage}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>{dialog.ok}</Button>
      </Group>
    </Modal>
  );
}

/** A failed load or write shown in place. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  const message = isApiRequestError(error) || error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" role="alert" my="sm">
      {message}
    </Alert>
  );
}
