import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" align="flex-start">
      <Title order={1}>Page not found</Title>
      <Text>
        There is no page at <code>{pathname}</code>.
      </Text>
      <Anchor component={Link} to="/">
        Go to the Dashboard
      </Anchor>
    </Stack>
  );
}
