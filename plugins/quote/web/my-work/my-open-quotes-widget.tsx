import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  EmptyState,
  formatMoney,
  MY_WORK_KEY_STYLE,
  MyWorkAside,
  MyWorkDetail,
  MyWorkList,
  StatusBadge,
  useApiClient,
  useSession,
} from '@atrium/sdk';
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
    <MyWorkList
      query={quotes}
      rows={(page) => page.data}
      rowKey={(quote) => quote.quote_number}
      empty={<EmptyState title="No open quotes" description="Quotes you start and have not bound show here." />}
      footer={(page, shown) =>
        page.meta.count > shown.length ? (
          <Anchor component={Link} to={quotesRoute.link({})} size="sm">
            All {page.meta.count} of my open quotes
          </Anchor>
        ) : null
      }
    >
      {(quote) => (
        <>
          <Anchor
            component={Link}
            to={quoteRoute.link({ quoteNumber: quote.quote_number })}
            size="sm"
            style={MY_WORK_KEY_STYLE}
          >
            {quote.quote_number}
          </Anchor>
          <MyWorkDetail>
            {[quote.named_insureds[0]?.name, quote.product_label].filter(Boolean).join(' · ')}
          </MyWorkDetail>
          <StatusBadge labels={QUOTE_STATUS} value={quote.status} />
          <MyWorkAside mono>{quote.premium ? formatMoney(quote.premium.term) : '–'}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
