import { Anchor, Badge, Group, Pagination, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  DataTable,
  EmptyState,
  PageHeader,
  QueryState,
  StatusBadge,
  formatDate,
  useApiClient,
  paginationControlProps,
} from '@atrium/sdk';
import { POLICY_STATUS_LABELS, searchPolicies, type SearchType } from '../policies-api.js';
import { policyPageRoute } from '../routes.js';

/** Spec page size of the policy search. */
const PAGE_SIZE = 10;

/** The policy search: newest first, by number or primary insured, within the caller's book. */
export default function PoliciesPage() {
  const api = useApiClient();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [searchType, setSearchType] = useState<SearchType>('number');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(text.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({
    queryKey: ['policies', 'search', query, searchType, page],
    queryFn: ({ signal }) => searchPolicies(api, { search: query, searchType, page, pageSize: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <PageHeader title="Policies" description="Policies in force, canceled and renewed, newest first." />
      <Group align="flex-end">
        <SegmentedControl
          aria-label="Search by"
          value={searchType}
          onChange={(value) => {
            setSearchType(value as SearchType);
            setPage(1);
          }}
          data={[
            { value: 'number', label: 'Number' },
            { value: 'primary_insured', label: 'Primary Insured' },
          ]}
        />
        <TextInput
          label="Search policies"
          placeholder={searchType === 'number' ? 'Policy number' : 'Primary insured name'}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
        />
      </Group>
      <QueryState
        query={list}
        isEmpty={(data) => data.results.length === 0}
        empty={<EmptyState title={query ? 'No matching Policies found.' : 'No policies yet.'} />}
      >
        {(data) => (
          <>
            <DataTable label="Policies">
              <thead>
                <tr>
                  <th>Policy number</th>
                  <th>Primary insured</th>
                  <th>Product</th>
                  <th>Status</th>
                  <th>Effective</th>
                  <th>Expires</th>
                </tr>
              </thead>
              <tbody>
                {data.results.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Anchor component={Link} to={policyPageRoute.link({ policyId: p.id })}>
                        {p.policy_number}
                      </Anchor>
                    </td>
                    <td>{p.primary_insured}</td>
                    <td>{p.product_name}</td>
                    <td>
                      <Group gap={4}>
                        <StatusBadge labels={POLICY_STATUS_LABELS} value={p.status} />
                        {p.cancellation_pending ? (
                          <Badge color="orange" variant="light" size="sm" tt="none">
                            Cancellation pending
                          </Badge>
                        ) : null}
                      </Group>
                    </td>
                    <td>{formatDate(p.effective_date)}</td>
                    <td>{formatDate(p.expiration_date)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            {data.count > PAGE_SIZE ? (
              <Pagination
                getControlProps={paginationControlProps}
                total={Math.ceil(data.count / PAGE_SIZE)}
                value={page}
                onChange={setPage}
                aria-label="Pages of policies"
              />
            ) : null}
          </>
        )}
      </QueryState>
    </Stack>
  );
}
