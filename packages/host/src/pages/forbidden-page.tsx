import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { SELECT_ROLE_PATH } from '../routing/host-route-refs.js';

/** Where the guard sends a user whose effective role may not view a module. */
export default function ForbiddenPage() {
  return (
    <Stack gap="sm" align="flex-start">
      <Title order={1}>Forbidden</Title>
      <Text>Your current role does not give you access to this page.</Text>
      <Anchor component={Link} to={SELECT_ROLE_PATH}>
        Switch role
      </Anchor>
      <Anchor component={Link} to="/">
        Go to the Dashboard
      </Anchor>
    </Stack>
  );
}
