import { Anchor, Group, List, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  formatDateTime,
  formatMoney,
  PageHeader,
  QueryState,
  useApiClient,
  paginationControlProps,
} from '@atrium/sdk';
import { quoteApi } from '../quote-api.js';
import { quotePageRoute } from '../routes.js';

const PAGE_SIZE = 25;

/**
 * The underwriter's review queue: the quotes In Review (referrals), longest waiting first, with the
 * underwriting issues that hold each one. A quote opens on its review page, where each issue is
 * approved or declined with a reason.
 */
export default function ReviewQueuePage() {
  const api = useApiClient();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(text.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  const queue = useQuery({
    queryKey: ['quote', 'review-queue', search, page],
    queryFn: ({ signal }) =>
      quoteApi(api).reviewQueue(
        { 'page[size]': PAGE_SIZE, 'page[number]': page, ...(search ? { search } : {}) },
        signal,
      ),
  });
  const empty = <EmptyState title={search ? 'No matching referrals found.' : 'No quotes are waiting for review.'} />;
  return (
    <Stack>
      <PageHeader title="Review queue" description="Quotes referred to underwriting, longest waiting first." />
      <TextInput
        label="Search referrals"
        placeholder="Quote number or insured"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={420}
      />
      <QueryState query={queue} empty={empty}>
        {(doc) =>
          doc.data.length === 0 ? (
            empty
          ) : (
            <Stack>
              <DataTable label="Referrals">
                <thead>
                  <tr>
                    <th>Quote</th>
                    <th>Insured</th>
                    <th>Line</th>
                    <th>Premium</th>
                    <th>Waiting since</th>
                    <th>Underwriting issues</th>
                  </tr>
                </thead>
                <tbody>
                  {doc.data.map((q) => (
                    <tr key={q.quote_number}>
                      <td>
                        <Anchor
                          component={Link}
                          to={quotePageRoute.link({
                            quoteNumber: q.quote_number,
                            pageGroupName: 'review',
                            pageName: 'review',
                          })}
                        >
                          {q.quote_number}
                        </Anchor>
                      </td>
                      <td>{q.named_insureds[0]?.name ?? '–'}</td>
                      <td>{q.product_label}</td>
                      <td>{q.premium ? formatMoney(q.premium.term) : '–'}</td>
                      <td>{formatDateTime(q.updated_at)}</td>
                      <td>
                        <List size="sm" spacing={2}>
                          {q.underwriting_issues.map((i) => (
                            <List.Item key={i.id}>
                              {i.message}
                              {i.status === 'rejected' ? ' (declined)' : ''}
                            </List.Item>
                          ))}
                        </List>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {doc.meta.count} {doc.meta.count === 1 ? 'referral' : 'referrals'}
                </Text>
                <Pagination
                  getControlProps={paginationControlProps}
                  total={Math.max(1, Math.ceil(doc.meta.count / PAGE_SIZE))}
                  value={page}
                  onChange={setPage}
                  aria-label="Pages of referrals"
                />
              </Group>
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
