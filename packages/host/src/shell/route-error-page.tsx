import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ChunkLoadTimeoutError } from '../routing/lazy-page.js';

/** Shown when a page fails to load or render; one broken page must not blank the whole app. */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunkProblem =
    error instanceof ChunkLoadTimeoutError ||
    (error instanceof Error && /dynamically imported module|Loading chunk/i.test(error.message));
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : chunkProblem
      ? 'This page could not be loaded. A newer version of the app may be available.'
      : 'Something went wrong while showing this page.';
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm">
        <Title order={2}>We are sorry</Title>
        <Text>{message}</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
