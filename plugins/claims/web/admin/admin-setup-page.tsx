import { Anchor, Card, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_MODULES, filterAdminModules } from './admin-modules.js';

/** claims:admin-setup — the setup modules, filtered by title (case-insensitive). */
export default function AdminSetupPage() {
  const [search, setSearch] = useState('');
  const modules = filterAdminModules(ADMIN_MODULES, search);
  return (
    <Stack>
      <Title order={1} size="h2">
        Claims admin setup
      </Title>
      <TextInput label="Search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={320} />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {modules.map((m) => (
          <Card key={m.title} withBorder>
            <Anchor component={Link} to={m.to} fw={600}>
              {m.title}
            </Anchor>
            <Text size="sm" c="dimmed">
              {m.description}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {modules.length === 0 ? <Text c="dimmed">No setup module matches “{search}”.</Text> : null}
    </Stack>
  );
}
