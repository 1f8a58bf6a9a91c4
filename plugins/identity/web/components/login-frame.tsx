import { Anchor, Center, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface CarrierSummary {
  name: string;
  logo_url: string | null;
}

/** The carrier running the portal (public); the same query key as the shell's top bar, so one fetch. */
function useCarrier() {
  return useQuery({
    queryKey: ['carrier', 'primary'],
    queryFn: async (): Promise<CarrierSummary> => {
      const response = await fetch('/api/v2/insured/get_primary_carrier', { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`get_primary_carrier answered HTTP ${response.status}`);
      return ((await response.json()) as { data: CarrierSummary }).data;
    },
    staleTime: Infinity,
  });
}

/** The card every sign-in, reset and role page sits in: carrier brand, a heading, the form. */
export function LoginFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  const { data: carrier } = useCarrier();
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" p="xl" w={420} maw="100%" component="main">
        <Stack gap="md">
          <Group gap="xs" wrap="nowrap">
            <Image src={carrier?.logo_url || '/carrier-logo.svg'} alt="" w={32} h={32} fit="contain" />
            <Text fw={600}>{carrier?.name ?? 'Atrium'}</Text>
          </Group>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
          {footer}
        </Stack>
      </Paper>
    </Center>
  );
}

export function BackToSignIn() {
  return (
    <Anchor component={Link} to="/login" size="sm">
      Back to sign in
    </Anchor>
  );
}
