import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatMoney, QueryState, useApiClient, useSession } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { claimsKeys, fetchClaimPage } from '../api/claims-api.js';
import { claimsDashboardRoute, claimsLossDetailRoute } from '../routes.js';

/** Claims shown in the widget; the claims dashboard lists them all. */
export const MY_OPEN_CLAIMS_SHOWN = 5;

/** My work › My open claims: the signed-in adjuster's open claims, newest first. */
export default function MyOpenClaimsWidget() {
  const api = useApiClient();
  const { user } = useSession();
  const username = user?.username ?? '';
  const filters = { primary_adjuster: username, status: 'open' };
  const claims = useQuery({
    queryKey: claimsKeys.list({ filters, page: 1, size: MY_OPEN_CLAIMS_SHOWN, widget: 'my-work' }),
    queryFn: ({ signal }) => fetchClaimPage(api, filters, 1, MY_OPEN_CLAIMS_SHOWN, signal),
    enabled: username !== '',
  });
  return (
    <QueryState
      query={claims}
      isEmpty={(page) => page.claims.length === 0}
      empty={<EmptyState title="No open claims" description="Claims assigned to you show here." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.claims.map((claim) => (
              <Group key={claim.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                {/* The number never breaks at its hyphen ("CLM-" / "000039" at 1024); the description gives way. */}
                <Anchor
                  component={Link}
                  to={claimsLossDetailRoute.link({ claimNumber: claim.number })}
                  size="sm"
                  style={{ flex: 'none', whiteSpace: 'nowrap' }}
                >
                  {claim.number}
                </Anchor>
                <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                  {claim.loss_description ?? ''}
                </Text>
                <Text size="sm" ff="monospace" style={{ flex: 'none' }}>
                  {formatMoney(claim.total_incurred ?? '0')}
                </Text>
              </Group>
            ))}
          </Stack>
          {page.count > page.claims.length ? (
            <Anchor component={Link} to={claimsDashboardRoute.link({})} size="sm">
              All {page.count} of my claims
            </Anchor>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}
