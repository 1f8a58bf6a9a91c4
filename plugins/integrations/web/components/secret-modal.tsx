import { Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** A subscription's signing secret, shown once after creation (or on request) with a copy button. */
export function SecretModal({ secret, onClose }: { secret: string | null; onClose(): void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Signing secret" size="lg">
      <Stack>
        <Text size="sm">
          The receiver verifies each delivery's <Code>webhook-signature</Code> with this secret (Standard Webhooks).
          Keep it somewhere safe.
        </Text>
        <Code block data-testid="subscription-secret">
          {secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
