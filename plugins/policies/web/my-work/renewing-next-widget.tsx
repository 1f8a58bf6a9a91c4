import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  EmptyState,
  formatDate,
  MY_WORK_KEY_STYLE,
  MyWorkAside,
  MyWorkDetail,
  MyWorkList,
  useApiClient,
} from '@atrium/sdk';
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
    <MyWorkList
      query={policies}
      rows={(page) => page.results}
      rowKey={(p) => p.id}
      empty={<EmptyState title="No policies in force" description="Policies you write show here as their terms end." />}
      footer={(page, shown) =>
        page.count > shown.length ? (
          <Anchor component={Link} to={policiesPageRoute.link({})} size="sm">
            All {page.count} policies in force
          </Anchor>
        ) : null
      }
    >
      {(p) => (
        <>
          <Anchor
            component={Link}
            to={policyPageRoute.link({ policyId: String(p.id) })}
            size="sm"
            style={MY_WORK_KEY_STYLE}
          >
            {p.policy_number}
          </Anchor>
          <MyWorkDetail>{[p.primary_insured, p.product_name].filter(Boolean).join(' · ')}</MyWorkDetail>
          <MyWorkAside>ends {formatDate(p.expiration_date)}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
