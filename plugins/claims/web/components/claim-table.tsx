import { Anchor, Badge, Checkbox, Group, Pagination, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Claim } from '../api/claims-api.js';
import { formatAmount } from '../api/accounting-api.js';
import { text } from '../api/jsonapi.js';
import { claimsFnolRoute, claimsLossDetailRoute } from '../routes.js';

export function StatusBadge({ status }: { status: string }) {
  const color = status === 'open' || status === 'reopened' ? 'blue' : status === 'closed' ? 'gray' : 'yellow';
  return (
    <Badge variant="light" color={color}>
      {status}
    </Badge>
  );
}

/** A page of claims; drafts link to the FNOL wizard, other claims to their workspace. */
export function ClaimTable({
  label,
  claims,
  page,
  pages,
  onPage,
  selected,
  onSelect,
}: {
  label: string;
  claims: Claim[];
  page: number;
  pages: number;
  onPage(page: number): void;
  selected?: ReadonlySet<string>;
  onSelect?(id: string, checked: boolean): void;
}) {
  return (
    <>
      <Table aria-label={label} striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {onSelect ? <Table.Th w={32} /> : null}
            <Table.Th>Number</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Date of loss</Table.Th>
            <Table.Th>Adjuster</Table.Th>
            <Table.Th ta="right">Total incurred</Table.Th>
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
                <StatusBadge status={claim.status} />
              </Table.Td>
              <Table.Td>{text(claim.policy_number)}</Table.Td>
              <Table.Td>{text(claim.date_of_loss).slice(0, 10)}</Table.Td>
              <Table.Td>{text(claim.primary_adjuster) || '—'}</Table.Td>
              <Table.Td ta="right">{formatAmount(claim.total_incurred)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {claims.length === 0 ? (
        <Text c="dimmed" size="sm" my="sm">
          No claims.
        </Text>
      ) : null}
      {pages > 1 ? (
        <Group justify="flex-end" mt="sm">
          <Pagination total={pages} value={page} onChange={onPage} size="sm" aria-label={`${label} pages`} />
        </Group>
      ) : null}
    </>
  );
}
