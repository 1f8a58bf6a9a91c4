import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatDate, QueryState, useApiClient } from '@atrium/sdk';
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
    <QueryState
      query={queue}
      isEmpty={(page) => page.data.length === 0}
      empty={<EmptyState title="No referrals" description="Quotes referred to underwriting show here." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.data.map((quote) => {
              const open = quote.underwriting_issues.filter((issue) => issue.status === 'open').length;
              return (
                <Group key={quote.quote_number} component="li" justify="space-between" wrap="nowrap" gap="sm">
                  <Anchor
                    component={Link}
                    to={quotePageRoute.link({
                      quoteNumber: quote.quote_number,
                      pageGroupName: 'review',
                      pageName: 'review',
                    })}
                    size="sm"
                    style={{ flex: 'none', whiteSpace: 'nowrap' }}
                  >
                    {quote.quote_number}
                  </Anchor>
                  <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                    {[quote.named_insureds[0]?.name, quote.product_label].filter(Boolean).join(' · ')}
                  </Text>
                  <Text size="sm" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                    {open === 1 ? '1 open issue' : `${open} open issues`}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ flex: 'none', whiteSpace: 'nowrap' }}>
                    {formatDate(quote.updated_at)}
                  </Text>
                </Group>
              );
            })}
          </Stack>
          {page.meta.count > page.data.length ? (
            <Anchor component={Link} to={reviewQueueRoute.link({})} size="sm">
              All {page.meta.count} referrals
            </Anchor>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}
