import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  EmptyState,
  formatMoney,
  MY_WORK_KEY_STYLE,
  MyWorkAside,
  MyWorkDetail,
  MyWorkList,
  useApiClient,
  useSession,
} from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { claimsKeys, fetchClaimPage } from '../api/claim-reads.js';
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
    <MyWorkList
      query={claims}
      rows={(page) => page.claims}
      rowKey={(claim) => claim.id}
      empty={<EmptyState title="No open claims" description="Claims assigned to you show here." />}
      footer={(page, shown) =>
        page.count > shown.length ? (
          <Anchor component={Link} to={claimsDashboardRoute.link({})} size="sm">
            All {page.count} of my claims
          </Anchor>
        ) : null
      }
    >
      {(claim) => (
        <>
          <Anchor
            component={Link}
            to={claimsLossDetailRoute.link({ claimNumber: claim.number })}
            size="sm"
            style={MY_WORK_KEY_STYLE}
          >
            {claim.number}
          </Anchor>
          <MyWorkDetail>{claim.loss_description ?? ''}</MyWorkDetail>
          <MyWorkAside mono>{formatMoney(claim.total_incurred ?? '0')}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
