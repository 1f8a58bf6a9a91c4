import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatMoney, QueryState, StatusBadge, useApiClient, useSession } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { QUOTE_STATUS, quoteApi } from '../quote-api.js';
import { quoteRoute, quotesRoute } from '../routes.js';

/** Quotes shown in the widget; the quotes list has them all. */
export const MY_OPEN_QUOTES_SHOWN = 5;

/** Still to be worked on: not bound, not declined, not abandoned. */
export const OPEN_QUOTE_STATUSES = ['In Progress', 'In Review', 'Approved'];

/** My work › My open quotes: the quotes the signed-in user owns that are not bound yet, latest change first. */
export default function MyOpenQuotesWidget() {
  const api = useApiClient();
  const { user } = useSession();
  const owner = user?.username ?? '';
  const quotes = useQuery({
    queryKey: ['quote', 'list', 'my-work', owner],
    queryFn: ({ signal }) =>
      quoteApi(api).list(
        {
          'filter[owner]': owner,
          'filter[status]': OPEN_QUOTE_STATUSES.join(','),
          'filter[is_bound]': 'false',
          'page[size]': MY_OPEN_QUOTES_SHOWN,
          'page[number]': 1,
        },
        signal,
      ),
    enabled: owner !== '',
  });
  return (
    <QueryState
      query={quotes}
      isEmpty={(page) => page.data.length === 0}
      empty={<EmptyState title="No open quotes" description="Quotes you start and have not bound show here." />}
    >
      {(page) => (
        <Stack gap={6}>
          <Stack gap={4} component="ul" className="atrium-my-work-list">
            {page.data.map((quote) => (
              <Group key={quote.quote_number} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Anchor
                  component={Link}
                  to={quoteRoute.link({ quoteNumber: quote.quote_number })}
                  size="sm"
                  style={{ flex: 'none', whiteSpace: 'nowrap' }}
                >
                  {quote.quote_number}
                </Anchor>
                <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
                  {[quote.named_insureds[0]?.name, quote.product_label].filter(Boolean).join(' · ')}
                </Text>
                <StatusBadge labels={QUOTE_STATUS} value={quote.status} />
                <Text size="sm" ff="monospace" style={{ flex: 'none' }}>
                  {quote.premium ? formatMoney(quote.premium.term) : '–'}
                </Text>
              </Group>
            ))}
          </Stack>
          {page.meta.count > page.data.length ? (
            <Anchor component={Link} to={quotesRoute.link({})} size="sm">
              All {page.meta.count} of my open quotes
            </Anchor>
          ) : null}
        </Stack>
      )}
    </QueryState>
  );
}
