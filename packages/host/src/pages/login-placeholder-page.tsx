import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { CarrierBrand } from '../shell/carrier-brand.js';

/**
 * Stands in for the sign-in page until the identity module registers its own `login` route. It
 * says plainly that signing in is not possible yet instead of pretending to sign anyone in.
 */
export default function LoginPlaceholderPage() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <Stack gap="md">
          <CarrierBrand />
          <Title order={2}>Sign in</Title>
          <Alert color="yellow" role="status">
            Sign-in is not available yet.
          </Alert>
          <TextInput label="Username" disabled />
          <PasswordInput label="Password" disabled />
          <Button disabled>Sign in</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
