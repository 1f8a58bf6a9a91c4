import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatDate, QueryState, useApiClient } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import type { ExceptionItem } from '../api.js';
import { kindLabel, moduleLabel } from '../labels.js';
import { exceptionsRoute } from '../routes.js';

/** Exceptions shown in the widget; the exceptions queue retries or dismisses them. */
export const OPEN_EXCEPTIONS_SHOWN = 5;

/** My work › Open exceptions: failures that outlived their retries, from any module. */
export default function OpenExceptionsWidget() {
  const api = useApiClient();
  const open = useQuery({
    queryKey: ['integrations', 'exceptions', 'my-work'],
    queryFn: ({ signal }) =>
      api.get<{ count: number; results: ExceptionItem[] }>('/integrations/exceptions', {
        query: { status: 'open', page: 1, page_size: OPEN_EXCEPTIONS_SHOWN },
        signal,
      }),
  });
  return (
    <QueryState
      query={open}
      isEmpty={(page) => page.results.length === 0}
      empty={<EmptyState title="No open exceptions" description="Failures that outlive their retries show here." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.results.map((item) => (
              <Group key={item.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Text size="sm" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                  {moduleLabel(item.module)} · {kindLabel(item.kind)}
                </Text>
                <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                  {item.reason}
                </Text>
                <Text size="sm" c="dimmed" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                  {formatDate(item.date_created)}
                </Text>
              </Group>
            ))}
          </Stack>
          <Anchor component={Link} to={exceptionsRoute.link({})} size="sm">
            {page.count > page.results.length ? `All ${page.count} open exceptions` : 'Open the exceptions queue'}
          </Anchor>
        </Stack>
      )}
    </QueryState>
  );
}
