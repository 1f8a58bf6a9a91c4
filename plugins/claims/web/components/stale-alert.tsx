import { Alert, Button, Group, Text } from '@mantine/core';
import { ErrorAlert } from '@atrium/sdk';
import { isStale } from '../api/jsonapi.js';

export const STALE_MESSAGE = 'This claim was changed by someone else; reload to see the changes.';

/** A failed write in place; a stale If-Match (412) says so and offers to reload the claim. */
export function WriteError({ error, onReload }: { error: unknown; onReload(): void }) {
  if (!error) return null;
  if (isStale(error))
    return (
      <Alert color="orange" role="alert" my="sm">
        <Group justify="space-between">
          <Text size="sm">{STALE_MESSAGE}</Text>
          <Button size="xs" variant="light" onClick={onReload}>
            Reload
          </Button>
        </Group>
      </Alert>
    );
  return <ErrorAlert error={error} />;
}
