import { Anchor, Button, Code, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useHostServices } from '@atrium/sdk';
import { useLines } from '../catalog/lines-api.js';
import { LINES_RESOURCES } from '../catalog/permissions.js';
import { LineFormModal } from '../components/line-form.js';
import { ProductImportsCard } from '../components/product-imports.js';
import { ErrorAlert, useCanWrite, VersionStatusBadge } from '../components/shared.js';
import { lineOverviewRoute } from '../routes.js';
import { DataTable, EmptyState, LoadingState } from '@atrium/sdk';
import IconStack2 from '@tabler/icons-react/icons/IconStack2';

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
      <DataTable label="Lines">
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
                <Group gap={6} wrap="nowrap">
                  <Anchor component={Link} to={lineOverviewRoute.link({ lineName: line.name })}>
                    {line.label || line.name}
                  </Anchor>
                  {/* The technical name formulas and imports use, shown as code. */}
                  {line.label && line.label !== line.name ? <Code>{line.name}</Code> : null}
                </Group>
              </Table.Td>
              {/* A product is known by its technical name (imports and rules refer to it), shown as code. */}
              <Table.Td>{line.latestProduct ? <Code>{line.latestProduct.name}</Code> : '—'}</Table.Td>
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
                      Latest version
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
      </DataTable>
      {lines.isPending ? <LoadingState rows={3} label="Loading lines" /> : null}
      {lines.isSuccess && lines.data.length === 0 && <EmptyState icon={IconStack2} title="No lines found." />}
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
