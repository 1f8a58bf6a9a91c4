import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { EffectiveDateJson } from '../../shared/api-types.js';
import { formatDay, serverMessage } from '../format.js';

/** Whether the role may publish (change an effective date's status): `rules:project` `update`. */
export function usePublishRight() {
  return useCan('rules:project', 'update').allowed;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Publishes a draft effective date: its date can still be moved first (`PUT
 * rules/projects/{id}/effective-dates/{dateId}/`, drafts only), then `PUT …/{dateId}/published/`.
 * The server refuses a date with no deployment, or a date the project already has; its message is
 * shown as it words it.
 */
export function PublishDialog(props: {
  projectId: number;
  projectLabel: string;
  date: EffectiveDateJson;
  onClose: () => void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [day, setDay] = useState(props.date.effective_date);
  const publish = useMutation({
    mutationFn: async () => {
      const base = `/rules/projects/${props.projectId}/effective-dates/${props.date.id}/`;
      if (day !== props.date.effective_date) await api.put(base, { effective_date: day });
      return api.put<EffectiveDateJson>(`${base}published/`, {});
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['rules'] }),
    onSuccess: (published) => {
      services.showToast({
        message: `Published ${props.projectLabel} on ${formatDay(published.effective_date)}.`,
        kind: 'success',
      });
      props.onClose();
    },
  });
  const dayError = DAY.test(day) ? null : 'Use a date as YYYY-MM-DD.';
  const title = `Publish ${formatDay(props.date.effective_date)}`;
  return (
    <Modal opened onClose={props.onClose} title={title}>
      <form
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          if (!dayError) publish.mutate();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Once published, quotes dated on or after this date run the rules of its latest deployment. A published date
            no longer changes; to change rules, add a new effective date.
          </Text>
          <TextInput
            type="date"
            label="Effective date"
            description="A draft's date can still be moved before it is published."
            value={day}
            onChange={(e) => setDay(e.currentTarget.value)}
            error={dayError}
            required
          />
          {publish.isError && (
            <Alert color="red" title="Not published">
              {serverMessage(publish.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={publish.isPending} disabled={dayError !== null}>
              Publish
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
