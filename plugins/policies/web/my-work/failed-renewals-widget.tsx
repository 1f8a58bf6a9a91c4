import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatDate, QueryState, useApiClient } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import type { Page, Transaction } from '../policies-api.js';
import { failedRenewalsRoute, policyPageRoute } from '../routes.js';

/** Failed renewals shown in the widget, newest first (the failed renewals page retries or dismisses them). */
export const FAILED_RENEWALS_SHOWN = 5;

/** My work › Failed renewals: renewals that could not be issued, for those who may renew. */
export default function FailedRenewalsWidget() {
  const api = useApiClient();
  const failed = useQuery({
    queryKey: ['policies', 'failed-renewals', 'my-work'],
    queryFn: ({ signal }) =>
      api.get<Page<Transaction>>('/policies/failed-renewals/', {
        query: { page: 1, size: FAILED_RENEWALS_SHOWN, sort: '-date_created' },
        signal,
      }),
  });
  return (
    <QueryState
      query={failed}
      isEmpty={(page) => page.results.length === 0}
      empty={<EmptyState title="No failed renewals" description="Renewals that could not be issued show here." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.results.map((t) => (
              <Group key={t.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                {t.policy ? (
                  <Anchor
                    component={Link}
                    to={policyPageRoute.link({ policyId: String(t.policy) })}
                    size="sm"
                    style={{ flex: 'none', whiteSpace: 'nowrap' }}
                  >
                    {t.policy_number}
                  </Anchor>
                ) : null}
                <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                  {[t.primary_insured, t.error].filter(Boolean).join(' · ')}
                </Text>
                <Text size="sm" c="dimmed" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                  {formatDate(t.date_created)}
                </Text>
              </Group>
            ))}
          </Stack>
          <Anchor component={Link} to={failedRenewalsRoute.link({})} size="sm">
            {page.count > page.results.length ? `All ${page.count} failed renewals` : 'Retry or dismiss them'}
          </Anchor>
        </Stack>
      )}
    </QueryState>
  );
}
