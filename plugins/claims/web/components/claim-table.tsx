import { Anchor, Checkbox, Group, Pagination, Table } from '@mantine/core';

const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;
import { DataTable, EmptyState, formatDate, formatMoney, LoadingState, StatusBadge } from '@atrium/sdk';
import IconFolderOpen from '@tabler/icons-react/icons/IconFolderOpen';
import { Link } from 'react-router-dom';
import type { Claim } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { claimStatusLabels } from '../claims-labels.js';
import { claimsFnolRoute, claimsLossDetailRoute } from '../routes.js';
import { adjusterName } from './adjuster-label.js';

/** A claim's status as a badge with its human label. */
export function ClaimStatusBadge({ status }: { status: string }) {
  return <StatusBadge labels={claimStatusLabels} value={status} />;
}

/**
 * A page of claims; drafts link to the FNOL wizard, other claims to their workspace. While the
 * first page loads it shows a skeleton, not "No claims.".
 */
export function ClaimTable({
  label,
  claims,
  page,
  pages,
  onPage,
  selected,
  onSelect,
  loading = false,
}: {
  label: string;
  loading?: boolean;
  claims: Claim[];
  page: number;
  pages: number;
  onPage(page: number): void;
  selected?: ReadonlySet<string>;
  onSelect?(id: string, checked: boolean): void;
}) {
  return (
    <>
      <DataTable label={label} stickyFirstColumn={!onSelect}>
        <Table.Thead>
          <Table.Tr>
            {onSelect ? <Table.Th w={32} /> : null}
            <Table.Th>Number</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Date of loss</Table.Th>
            <Table.Th>Adjuster</Table.Th>
            <Table.Th className="atrium-num">Total incurred</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {claims.map((claim) => (
            <Table.Tr key={claim.id}>
              {onSelect ? (
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${claim.number}`}
                    checked={selected?.has(claim.id) ?? false}
                    onChange={(e) => onSelect(claim.id, e.currentTarget.checked)}
                  />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Anchor
                  component={Link}
                  to={
                    claim.status === 'draft'
                      ? claimsFnolRoute.link({ fnolNumber: text(claim.fnol_number || claim.number) })
                      : claimsLossDetailRoute.link({ claimNumber: claim.number })
                  }
                >
                  {claim.number}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <ClaimStatusBadge status={claim.status} />
              </Table.Td>
              <Table.Td>{text(claim.policy_number)}</Table.Td>
              <Table.Td className="atrium-num">{formatDate(text(claim.date_of_loss).slice(0, 10))}</Table.Td>
              <Table.Td>{adjusterName(claim) || '—'}</Table.Td>
              <Table.Td className="atrium-num">{formatMoney(text(claim.total_incurred) || '0')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </DataTable>
      {loading && claims.length === 0 ? <LoadingState rows={4} label={`Loading ${label.toLowerCase()}`} /> : null}
      {!loading && claims.length === 0 ? <EmptyState icon={IconFolderOpen} title="No claims." /> : null}
      {pages > 1 ? (
        // A named navigation landmark holds the pages (a name on Pagination's own div is not
        // permitted ARIA); the arrow buttons hold only an icon, so they get names too.
        <Group component="nav" aria-label={`${label} pages`} justify="flex-end" mt="sm">
          <Pagination
            total={pages}
            value={page}
            onChange={onPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })}
          />
        </Group>
      ) : null}
    </>
  );
}
