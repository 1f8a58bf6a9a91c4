import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, formatDate, MyWorkAside, MyWorkDetail, MyWorkList, useApiClient } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import type { ExceptionItem } from '../api.js';
import { kindLabel, moduleLabel } from '../labels.js';
import { exceptionsRoute } from '../routes.js';

/** Exceptions shown in the widget; the exceptions queue retries or dismisses them. */
export const OPEN_EXCEPTIONS_SHOWN = 5;

/** My work › Open exceptions: failures that outlived their retries, from any module. */
export default function OpenExceptionsWidget() {
  const api = useApiClient();
  const open = useQuery({
    queryKey: ['integrations', 'exceptions', 'my-work'],
    queryFn: ({ signal }) =>
      api.get<{ count: number; results: ExceptionItem[] }>('/integrations/exceptions', {
        query: { status: 'open', page: 1, page_size: OPEN_EXCEPTIONS_SHOWN },
        signal,
      }),
  });
  return (
    <MyWorkList
      query={open}
      rows={(page) => page.results}
      rowKey={(item) => item.id}
      empty={<EmptyState title="No open exceptions" description="Failures that outlive their retries show here." />}
      footer={(page, shown) => (
        <Anchor component={Link} to={exceptionsRoute.link({})} size="sm">
          {page.count > shown.length ? `All ${page.count} open exceptions` : 'Open the exceptions queue'}
        </Anchor>
      )}
    >
      {(item) => (
        <>
          <MyWorkAside>
            {moduleLabel(item.module)} · {kindLabel(item.kind)}
          </MyWorkAside>
          <MyWorkDetail>{item.reason}</MyWorkDetail>
          <MyWorkAside dimmed>{formatDate(item.date_created)}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
