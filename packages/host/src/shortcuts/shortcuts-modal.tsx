import { Alert, Kbd, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { formatKeySequence } from '@atrium/sdk';
import { useSyncExternalStore } from 'react';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';

/** `?`: every key binding, what it runs, who declared it, and any conflicts. */
export function ShortcutsModal() {
  const runtime = useHostRuntime();
  const opened = useRuntimeStore(
    (r) => r.ui,
    (s) => s.shortcutsOpen,
  );
  const bindings = useSyncExternalStore(
    runtime.keybindings.subscribe,
    runtime.keybindings.list,
    runtime.keybindings.list,
  );
  const conflicts = opened ? runtime.keybindings.conflicts() : [];
  const describe = (command: string, description: string | undefined) =>
    description ?? runtime.commands.get(command)?.title ?? command;
  return (
    <Modal opened={opened} onClose={() => runtime.ui.getState().closeAll()} title="Keyboard Shortcuts" size="lg">
      <Stack gap="md">
        <Table striped aria-label="Keyboard shortcuts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Keys</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>From</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bindings.map((binding) => (
              <Table.Tr key={binding.id}>
                <Table.Td>
                  <Kbd>{formatKeySequence(binding.strokes, runtime.platform)}</Kbd>
                </Table.Td>
                <Table.Td>{describe(binding.command, binding.description)}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {binding.source ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {conflicts.length > 0 ? (
          <section aria-label="Conflicts">
            <Title order={4}>Conflicts</Title>
            {conflicts.map((conflict) => (
              <Alert key={conflict.sequence} color="orange" mt="xs">
                <Kbd>{formatKeySequence(conflict.bindings[0]!.strokes, runtime.platform)}</Kbd> is bound to{' '}
                {conflict.bindings
                  .map((b) => `${describe(b.command, b.description)} (${b.source ?? '?'})`)
                  .join(' and ')}
                ; the last one registered wins.
              </Alert>
            ))}
          </section>
        ) : (
          <Text size="sm" c="dimmed">
            No conflicts between shortcuts.
          </Text>
        )}
        {runtime.refusedBindings.length > 0 ? (
          <section aria-label="Refused bindings">
            <Title order={4}>Refused bindings</Title>
            {runtime.refusedBindings.map((message) => (
              <Alert key={message} color="red" mt="xs">
                {message}
              </Alert>
            ))}
          </section>
        ) : null}
      </Stack>
    </Modal>
  );
}
