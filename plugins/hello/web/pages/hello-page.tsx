import { Alert, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EXAMPLE_POLICIES } from '../example-policy-quick-search.js';

/** The hello plugin's page: greets through the plugin's server half and shows a picked example. */
export default function HelloPage() {
  const [params] = useSearchParams();
  const [greeting, setGreeting] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/hello/greeting?name=world', { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ message: string }>) : null))
      .then((body) => setGreeting(body?.message ?? null))
      .catch(() => setGreeting(null));
    return () => controller.abort();
  }, []);
  const picked = EXAMPLE_POLICIES.find((p) => p.number === params.get('examplePolicy'));
  return (
    <Stack gap="md">
      <Title order={1}>Hello</Title>
      <Text>This page comes from the example plugin in plugins/hello.</Text>
      {greeting ? <Text data-testid="hello-greeting">{greeting}</Text> : null}
      {picked ? (
        <Alert title="Example policy" color="blue">
          {picked.number} — {picked.insured} (example data, not a real policy)
        </Alert>
      ) : null}
    </Stack>
  );
}
