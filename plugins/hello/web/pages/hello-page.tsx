import { Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';

/** The hello plugin's page: greets through the plugin's server half. */
export default function HelloPage() {
  const [greeting, setGreeting] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/hello/greeting?name=world', { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ message: string }>) : null))
      .then((body) => setGreeting(body?.message ?? null))
      .catch(() => setGreeting(null));
    return () => controller.abort();
  }, []);
  return (
    <Stack gap="md">
      <Title order={1}>Hello</Title>
      <Text>This page comes from the example plugin in plugins/hello.</Text>
      {greeting ? <Text data-testid="hello-greeting">{greeting}</Text> : null}
    </Stack>
  );
}
