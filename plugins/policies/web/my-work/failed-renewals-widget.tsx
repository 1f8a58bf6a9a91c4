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
    <MyWorkList
      query={failed}
      rows={(page) => page.results}
      rowKey={(t) => t.id}
      empty={<EmptyState title="No failed renewals" description="Renewals that could not be issued show here." />}
      footer={(page, shown) => (
        <Anchor component={Link} to={failedRenewalsRoute.link({})} size="sm">
          {page.count > shown.length ? `All ${page.count} failed renewals` : 'Retry or dismiss them'}
        </Anchor>
      )}
    >
      {(t) => (
        <>
          {t.policy ? (
            <Anchor
              component={Link}
              to={policyPageRoute.link({ policyId: String(t.policy) })}
              size="sm"
              style={MY_WORK_KEY_STYLE}
            >
              {t.policy_number}
            </Anchor>
          ) : null}
          <MyWorkDetail>{[t.primary_insured, t.error].filter(Boolean).join(' · ')}</MyWorkDetail>
          <MyWorkAside dimmed>{formatDate(t.date_created)}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
