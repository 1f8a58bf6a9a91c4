import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatDate, QueryState, useApiClient } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import type { Page, PolicyListItem } from '../policies-api.js';
import { policiesPageRoute, policyPageRoute } from '../routes.js';

/** Policies shown in the widget; the policies page searches the whole book. */
export const RENEWING_NEXT_SHOWN = 5;

/** My work › Policies renewing next: the agent's (or agency's) in-force policies whose term ends first. */
export default function RenewingNextWidget() {
  const api = useApiClient();
  const policies = useQuery({
    queryKey: ['policies', 'renewing-next', 'my-work'],
    queryFn: ({ signal }) =>
      api.get<Page<PolicyListItem>>('/policies/policies/', {
        query: { status: 'In Force', ordering: 'expiration_date', page: 1, page_size: RENEWING_NEXT_SHOWN },
        signal,
      }),
  });
  return (
    <QueryState
      query={policies}
      isEmpty={(page) => page.results.length === 0}
      empty={<EmptyState title="No policies in force" description="Policies you write show here as their terms end." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.results.map((p) => (
              <Group key={p.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Anchor
                  component={Link}
                  to={policyPageRoute.link({ policyId: String(p.id) })}
                  size="sm"
                  style={{ flex: 'none', whiteSpace: 'nowrap' }}
                >
                  {p.policy_number}
                </Anchor>
                <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                  {[p.primary_insured, p.product_name].filter(Boolean).join(' · ')}
                </Text>
                <Text size="sm" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                  ends {formatDate(p.expiration_date)}
                </Text>
              </Group>
            ))}
          </Stack>
          {page.count > page.results.length ? (
            <Anchor component={Link} to={policiesPageRoute.link({})} size="sm">
              All {page.count} policies in force
            </Anchor>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}
