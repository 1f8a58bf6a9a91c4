import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useHostServices } from '@atrium/sdk';
import { useLines } from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { LineFormModal } from '../components/line-form.js';
import { ProductImportsCard } from '../components/product-imports.js';
import { ErrorAlert, useCanWrite, VersionStatusBadge } from '../components/shared.js';
import { lineOverviewRoute } from '../routes.js';

const SEARCH_DEBOUNCE_MS = 250;

/** lines:search-lines — every line with its latest product and version; filter by name; create a line. */
export default function SearchLinesPage() {
  const services = useHostServices();
  const canCreate = useCanWrite(LINES_RESOURCES.line, 'create');
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const lines = useLines(search);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Lines</Title>
        {canCreate && <Button onClick={() => setCreating(true)}>New line</Button>}
      </Group>
      <TextInput
        label="Name"
        placeholder="Filter lines by name"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={360}
      />
      <ErrorAlert error={lines.error} />
      <Table striped aria-label="Lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>Latest product</Table.Th>
            <Table.Th>Latest version</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(lines.data ?? []).map((line) => (
            <Table.Tr key={line.id}>
              <Table.Td>
                <Anchor component={Link} to={lineOverviewRoute.link({ lineName: line.name })}>
                  {line.label && line.label !== line.name ? `${line.label} (${line.name})` : line.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{line.latestProduct?.name ?? '—'}</Table.Td>
              <Table.Td>
                {line.latestProduct?.latestVersionId ? (
                  <Group gap="xs">
                    <Anchor
                      component={Link}
                      to={lineOverviewRoute.link(
                        { lineName: line.name },
                        { version_id: line.latestProduct.latestVersionId },
                      )}
                    >
                      Version {line.latestProduct.latestVersionId}
                    </Anchor>
                    {line.latestProduct.latestVersionStatus && (
                      <VersionStatusBadge status={line.latestProduct.latestVersionStatus} />
                    )}
                  </Group>
                ) : (
                  '—'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {lines.isSuccess && lines.data.length === 0 && <Text c="dimmed">No lines found.</Text>}
      <ProductImportsCard />
      <LineFormModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => {
          setCreating(false);
          services.navigate(lineOverviewRoute.link({ lineName: name }));
        }}
      />
    </Stack>
  );
}
