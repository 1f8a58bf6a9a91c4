import { Anchor, Button, Group, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  formatDate,
  formatMoney,
  PageHeader,
  QueryState,
  StatusBadge,
  useApiClient,
  useCan,
  paginationControlProps,
} from '@atrium/sdk';
import { QUOTE_STATUS, quoteApi } from '../quote-api.js';
import { createQuoteRoute, quoteRoute } from '../routes.js';

const PAGE_SIZE = 25;

/** The quotes the caller may see (agents: their own and their agency's), newest change first. */
export default function QuotesPage() {
  const api = useApiClient();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const mayCreate = useCan('quote:quote', 'create');
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(text.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({
    queryKey: ['quote', 'list', search, page],
    queryFn: ({ signal }) =>
      quoteApi(api).list(
        { 'page[size]': PAGE_SIZE, 'page[number]': page, ...(search ? { search } : {}), include: 'named_insureds' },
        signal,
      ),
  });
  return (
    <Stack>
      <PageHeader
        title="Quotes"
        description="Quotes in progress, in review, approved and bound."
        actions={
          mayCreate.allowed ? (
            <Button component={Link} to={createQuoteRoute.link({})}>
              New Quote
            </Button>
          ) : null
        }
      />
      <TextInput
        label="Search quotes"
        placeholder="Quote number, insured or line"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={420}
      />
      <QueryState query={list} empty={<EmptyState title={search ? 'No matching quotes found.' : 'No quotes yet.'} />}>
        {(doc) =>
          doc.data.length === 0 ? (
            <EmptyState title={search ? 'No matching quotes found.' : 'No quotes yet.'} />
          ) : (
            <Stack>
              <DataTable label="Quotes">
                <thead>
                  <tr>
                    <th>Quote</th>
                    <th>Insured</th>
                    <th>Line</th>
                    <th>Effective</th>
                    <th>Status</th>
                    <th>Premium</th>
                    <th>Policy</th>
                  </tr>
                </thead>
                <tbody>
                  {doc.data.map((q) => (
                    <tr key={q.quote_number}>
                      <td>
                        <Anchor component={Link} to={quoteRoute.link({ quoteNumber: q.quote_number })}>
                          {q.quote_number}
                        </Anchor>
                      </td>
                      <td>{q.named_insureds[0]?.name ?? '–'}</td>
                      <td>{q.product_label}</td>
                      <td>{formatDate(q.term.effective_date)}</td>
                      <td>
                        <StatusBadge labels={QUOTE_STATUS} value={q.status} />
                      </td>
                      <td>{q.premium ? formatMoney(q.premium.term) : '–'}</td>
                      <td>{q.policy?.policy_number ?? '–'}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {doc.meta.count} quotes
                </Text>
                <Pagination
                  getControlProps={paginationControlProps}
                  total={Math.max(1, Math.ceil(doc.meta.count / PAGE_SIZE))}
                  value={page}
                  onChange={setPage}
                  aria-label="Pages of quotes"
                />
              </Group>
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
