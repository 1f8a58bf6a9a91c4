import { Button, Code, Group, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { mapServerFormErrors, noSpace, required, useApiClient, useHostServices, validateForm } from '@atrium/sdk';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import {
  sequencesKey,
  sequenceWrites,
  useSequences,
  type Sequence,
  type SequenceValues,
} from '../catalog/sequences-api.js';
import { ConfirmButton, ErrorAlert, InheritanceBadge, ServerMessage, useCanWrite } from './shared.js';
import { FormModal, formErrorText } from './form-modal.js';
import { useWriteAction } from './use-write-action.js';

/** The Sequences tab of a product version: how its policy and quote numbers are formed. */
export function SequencesView({
  productId,
  versionId,
  readOnly,
}: {
  productId: number;
  versionId: number;
  readOnly: boolean;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canCreate = useCanWrite(LINES_RESOURCES.sequence, 'create') && !readOnly;
  const canUpdate = useCanWrite(LINES_RESOURCES.sequence, 'update') && !readOnly;
  const canDelete = useCanWrite(LINES_RESOURCES.sequence, 'delete') && !readOnly;
  const sequences = useSequences(productId, versionId);
  const [editing, setEditing] = useState<Sequence | 'new' | null>(null);
  const changed = () => queryClient.invalidateQueries({ queryKey: sequencesKey(productId, versionId) });
  const { message, act } = useWriteAction(changed);

  return (
    <Stack>
      <Group justify="flex-end">{canCreate && <Button onClick={() => setEditing('new')}>New sequence</Button>}</Group>
      <ErrorAlert error={sequences.error} />
      <ServerMessage message={message} />
      {sequences.isSuccess && sequences.data.length === 0 && <Text c="dimmed">No sequences.</Text>}
      {sequences.data && sequences.data.length > 0 && (
        <Table aria-label="Sequences">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Label</Table.Th>
              <Table.Th>Next number</Table.Th>
              <Table.Th>Start</Table.Th>
              <Table.Th>Increment</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sequences.data.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Code>{s.name}</Code>
                    <InheritanceBadge status={s.inheritanceStatus} />
                  </Group>
                </Table.Td>
                <Table.Td>{s.label}</Table.Td>
                <Table.Td>{s.preview ?? s.nextValue}</Table.Td>
                <Table.Td>{s.start}</Table.Td>
                <Table.Td>{s.increment}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {canUpdate && (
                      <Button size="xs" variant="subtle" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>
                        Edit
                      </Button>
                    )}
                    {canDelete && (
                      <ConfirmButton
                        label="sequence"
                        verb="delete"
                        color="red"
                        size="xs"
                        variant="subtle"
                        ariaLabel={`Delete ${s.name}`}
                        onConfirm={() =>
                          act(
                            () => sequenceWrites.remove(api, productId, versionId, s.id),
                            `Sequence '${s.name}' deleted.`,
                          )
                        }
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <SequenceFormModal
        opened={editing !== null}
        sequence={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSave={async (values) => {
          if (editing && editing !== 'new') await sequenceWrites.update(api, productId, versionId, editing.id, values);
          else await sequenceWrites.create(api, productId, versionId, values);
          await changed();
          services.showToast({ message: `Sequence '${values.name}' saved.`, kind: 'success' });
          setEditing(null);
        }}
      />
    </Stack>
  );
}

type FormText = Record<
  'name' | 'label' | 'prefix' | 'suffix' | 'padding' | 'start' | 'increment' | 'next_value',
  string
>;

const toText = (s: Sequence | null): FormText => ({
  name: s?.name ?? '',
  label: s?.label ?? '',
  prefix: s?.prefix ?? '',
  suffix: s?.suffix ?? '',
  padding: String(s?.padding ?? 0),
  start: String(s?.start ?? 1),
  increment: String(s?.increment ?? 1),
  next_value: s ? String(s.nextValue) : '',
});

const WHOLE = /^\d+$/;

function SequenceFormModal({
  opened,
  sequence,
  onClose,
  onSave,
}: {
  opened: boolean;
  sequence: Sequence | null;
  onClose(): void;
  onSave(values: SequenceValues): Promise<unknown>;
}) {
  const [values, setValues] = useState<FormText>(toText(null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setValues(toText(sequence));
    setErrors({});
    setFormError(null);
  }, [opened, sequence]);

  async function submit() {
    const local = validateForm(values as unknown as Record<string, unknown>, {
      name: { label: 'Name', rules: [required(), noSpace()] },
      label: { label: 'Label', rules: [required()] },
    }) as Record<string, string>;
    const numbers = [
      ['padding', 'Padding'],
      ['start', 'Start'],
      ['increment', 'Increment'],
      ...(sequence ? [['next_value', 'Next value'] as const] : []),
    ] as const;
    for (const [key, label] of numbers)
      if (!WHOLE.test(values[key].trim())) local[key] = `${label} must be a whole number.`;
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await onSave({
        name: values.name.trim(),
        label: values.label.trim(),
        prefix: values.prefix,
        suffix: values.suffix,
        padding: Number(values.padding),
        start: Number(values.start),
        increment: Number(values.increment),
        ...(sequence ? { next_value: Number(values.next_value) } : {}),
      });
    } catch (error) {
      const mapped = mapServerFormErrors(error);
      setErrors(mapped.fields);
      setFormError(formErrorText(mapped));
    } finally {
      setBusy(false);
    }
  }

  const input = (key: keyof FormText, label: string, isRequired = false) => (
    <TextInput
      label={label}
      required={isRequired}
      value={values[key]}
      error={errors[key]}
      onChange={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
    />
  );
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={sequence ? `Edit sequence ${sequence.name}` : 'New sequence'}
      formError={formError}
      busy={busy}
      onSave={submit}
    >
      {input('name', 'Name', true)}
      {input('label', 'Label', true)}
      <SimpleGrid cols={2}>
        {input('prefix', 'Prefix')}
        {input('suffix', 'Suffix')}
        {input('padding', 'Padding (digits)')}
        {input('start', 'Start')}
        {input('increment', 'Increment')}
        {sequence && input('next_value', 'Next value')}
      </SimpleGrid>
    </FormModal>
  );
}
