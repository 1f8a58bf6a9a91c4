import { Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorAlert, PageHeader, QueryState, US_STATES, useApiClient } from '@atrium/sdk';
import { quoteApi } from '../quote-api.js';
import { quoteRoute } from '../routes.js';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * New Quote: choose the product in force on the effective date, the state (quoting permissions,
 * rating and rules are per state), the dates and the named insured.
 */
export default function CreateQuotePage() {
  const api = useApiClient();
  const navigate = useNavigate();
  const [effective, setEffective] = useState(today());
  const [product, setProduct] = useState('');
  const [insured, setInsured] = useState('');
  const [state, setState] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(effective);
  const products = useQuery({
    queryKey: ['quote', 'products', effective],
    queryFn: () => quoteApi(api).products(effective),
    enabled: validDate,
  });
  const create = useMutation({
    mutationFn: () =>
      quoteApi(api).create({
        product_name: product,
        effective_date: effective,
        named_insured: { name: insured.trim() },
        state: state!,
      }),
    onSuccess: (quote) => navigate(quoteRoute.link({ quoteNumber: quote.quote_number })),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (product && insured.trim() && validDate && state) create.mutate();
  };
  return (
    <Stack maw={640}>
      <PageHeader
        title="New Quote"
        description="Choose the line, the effective date, the state and the named insured."
      />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            type="date"
            label="Effective date"
            required
            value={effective}
            onChange={(e) => setEffective(e.currentTarget.value)}
            error={tried && !validDate ? 'Enter the effective date.' : undefined}
          />
          <QueryState query={{ ...products, data: validDate ? products.data : { results: [] } }}>
            {(doc) =>
              doc.results.length === 0 ? (
                <Text c="dimmed">No product is in force on this date.</Text>
              ) : (
                <Radio.Group
                  label="Product"
                  required
                  value={product}
                  onChange={setProduct}
                  error={tried && !product ? 'Choose a product.' : undefined}
                >
                  <Stack gap="xs" mt="xs">
                    {doc.results.map((p) => (
                      <Radio key={p.name} value={p.name} label={`${p.label} (${p.version_label})`} />
                    ))}
                  </Stack>
                </Radio.Group>
              )
            }
          </QueryState>
          <Select
            label="State"
            required
            searchable
            data={[...US_STATES]}
            value={state}
            onChange={setState}
            placeholder="Where the risk is"
            error={tried && !state ? 'Choose the state.' : undefined}
            w={200}
          />
          <TextInput
            label="Named insured"
            required
            value={insured}
            onChange={(e) => setInsured(e.currentTarget.value)}
            error={tried && !insured.trim() ? 'Enter the insured’s name.' : undefined}
          />
          {create.error ? <ErrorAlert error={create.error} /> : null}
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create quote
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
