import { Anchor, Button, Stack, Table } from '@mantine/core';
import { Link } from 'react-router-dom';
import IconTransform from '@tabler/icons-react/icons/IconTransform';
import { EmptyState, ErrorState, LoadingState, PageHeader, StatusBadge, useCan } from '@atrium/sdk';
import { MAPPINGS_FETCH_ERROR, useMappings } from '../api.js';
import { formatDate, mappingStatusLabels } from '../labels.js';
import { editMappingRoute, newMappingRoute } from '../routes.js';

/** Data mappings: every version of every (from, to) pair, newest version first; each opens the editor. */
export default function MappingsPage() {
  const list = useMappings();
  const canCreate = useCan('integrations:mapping', 'create').allowed;
  return (
    <Stack>
      <PageHeader
        title="Data mappings"
        icon={IconTransform}
        description="JSONata mappings from one shape to another. A version is a draft until published; published versions never change."
        actions={
          canCreate && (
            <Button component={Link} to={newMappingRoute.link({})}>
              New mapping
            </Button>
          )
        }
      />
      {list.isPending ? (
        <LoadingState label="Loading data mappings" />
      ) : list.isError ? (
        <ErrorState error={new Error(MAPPINGS_FETCH_ERROR)} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No data mappings yet" description="Create one to reshape events for another system." />
      ) : (
        <Table aria-label="Data mappings" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>From</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Published</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <Anchor component={Link} to={editMappingRoute.link({ mappingId: m.id })}>
                    {m.from}
                  </Anchor>
                </Table.Td>
                <Table.Td>{m.to}</Table.Td>
                <Table.Td>{`Version ${m.version}`}</Table.Td>
                <Table.Td>
                  <StatusBadge labels={mappingStatusLabels} value={m.status} />
                </Table.Td>
                <Table.Td>{`${formatDate(m.date_created)} by ${m.created_by}`}</Table.Td>
                <Table.Td>{formatDate(m.date_published)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
