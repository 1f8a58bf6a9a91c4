import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatMoney, useApiClient } from '@atrium/sdk';
import { quoteApi, type Quote } from '../quote-api.js';

const signed = (value: string) => (value.startsWith('-') ? value : `+${value}`);

/** What the last re-rate changed: the premium, each coverage's premium, the factors that moved. */
export function RatingChanges({ quote }: { quote: Quote }) {
  const api = useApiClient();
  const difference = useQuery({
    queryKey: ['quote', quote.quote_number, 'difference', quote.last_rated_at],
    queryFn: () => quoteApi(api).difference(quote.quote_number),
    enabled: !!quote.last_rated_at,
  });
  const d = difference.data;
  if (!d?.previous || !d.current) return null;
  const coverages = d.coverages.filter((c) => c.before !== c.after);
  return (
    <Card withBorder component="section" aria-label="Changes since the last rating">
      <Stack gap="xs">
        <Title order={3}>Changes since the last rating</Title>
        <Text>
          Premium {formatMoney(d.previous.premium, 'USD')} → {formatMoney(d.current.premium, 'USD')} (
          {signed(formatMoney(d.premium_change ?? '0', 'USD'))})
        </Text>
        {coverages.length === 0 && d.factors.length === 0 ? (
          <Text c="dimmed">Nothing changed.</Text>
        ) : (
          <Table aria-label="Premium per coverage, before and after">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Risk</Table.Th>
                <Table.Th>Coverage or factor</Table.Th>
                <Table.Th ta="right">Before</Table.Th>
                <Table.Th ta="right">After</Table.Th>
                <Table.Th ta="right">Change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {coverages.map((c) => (
                <Table.Tr key={`${c.risk}/${c.name}`}>
                  <Table.Td>{c.risk_label}</Table.Td>
                  <Table.Td>{c.label}</Table.Td>
                  <Table.Td ta="right">{c.before === null ? '–' : formatMoney(c.before, 'USD')}</Table.Td>
                  <Table.Td ta="right">{c.after === null ? '–' : formatMoney(c.after, 'USD')}</Table.Td>
                  <Table.Td ta="right">{signed(formatMoney(c.change, 'USD'))}</Table.Td>
                </Table.Tr>
              ))}
              {d.factors.map((c) => (
                <Table.Tr key={`${c.risk}/${c.name}`}>
                  <Table.Td>{c.risk_label}</Table.Td>
                  <Table.Td>{c.label}</Table.Td>
                  <Table.Td ta="right">{c.before ?? '–'}</Table.Td>
                  <Table.Td ta="right">{c.after ?? '–'}</Table.Td>
                  <Table.Td ta="right">{c.change ? signed(c.change) : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
