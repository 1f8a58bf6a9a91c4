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
import { quoteApi } from '../quote-api.js';
import { quotePageRoute, reviewQueueRoute } from '../routes.js';

/** Referrals shown in the widget, longest waiting first (the review queue's order). */
export const REFERRALS_SHOWN = 5;

/** My work › Referrals awaiting review: quotes In Review, for those who may clear underwriting issues. */
export default function ReferralsWidget() {
  const api = useApiClient();
  const queue = useQuery({
    queryKey: ['quote', 'review-queue', 'my-work'],
    queryFn: ({ signal }) => quoteApi(api).reviewQueue({ 'page[size]': REFERRALS_SHOWN, 'page[number]': 1 }, signal),
  });
  return (
    <MyWorkList
      query={queue}
      rows={(page) => page.data}
      rowKey={(quote) => quote.quote_number}
      empty={<EmptyState title="No referrals" description="Quotes referred to underwriting show here." />}
      footer={(page, shown) =>
        page.meta.count > shown.length ? (
          <Anchor component={Link} to={reviewQueueRoute.link({})} size="sm">
            All {page.meta.count} referrals
          </Anchor>
        ) : null
      }
    >
      {(quote) => {
        const open = quote.underwriting_issues.filter((issue) => issue.status === 'open').length;
        return (
          <>
            <Anchor
              component={Link}
              to={quotePageRoute.link({ quoteNumber: quote.quote_number, pageGroupName: 'review', pageName: 'review' })}
              size="sm"
              style={MY_WORK_KEY_STYLE}
            >
              {quote.quote_number}
            </Anchor>
            <MyWorkDetail>
              {[quote.named_insureds[0]?.name, quote.product_label].filter(Boolean).join(' · ')}
            </MyWorkDetail>
            <MyWorkAside>{open === 1 ? '1 open issue' : `${open} open issues`}</MyWorkAside>
            <MyWorkAside dimmed>{formatDate(quote.updated_at)}</MyWorkAside>
          </>
        );
      }}
    </MyWorkList>
  );
}
