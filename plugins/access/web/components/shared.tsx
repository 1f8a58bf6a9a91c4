import { Group, Pagination, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { ConfirmButton } from '@atrium/sdk';

const PAGE_CONTROL_NAMES = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export { BatchFailureModal, ErrorAlert, type BatchFailure } from '@atrium/sdk';

/** A delete button that asks the SDK's 'Are you sure you want to delete this …?' first. */
export function ConfirmDeleteButton({
  label,
  onConfirm,
  disabled,
  buttonLabel = 'Delete',
  ariaLabel,
}: {
  label: string;
  onConfirm(): Promise<unknown> | void;
  disabled?: boolean;
  buttonLabel?: string;
  ariaLabel?: string;
}) {
  return (
    <ConfirmButton
      label={label}
      verb="delete"
      onConfirm={onConfirm}
      disabled={disabled}
      color="red"
      variant="subtle"
      size="xs"
      ariaLabel={ariaLabel}
    >
      {buttonLabel}
    </ConfirmButton>
  );
}

/** A column header that sorts the list by `field` (click again to reverse). */
export function SortHeader({
  field,
  ordering,
  onOrdering,
  children,
}: {
  field: string;
  ordering: string;
  onOrdering(next: string): void;
  children: ReactNode;
}) {
  const direction = ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : 'none';
  return (
    <Table.Th aria-sort={direction}>
      <UnstyledButton fw={600} onClick={() => onOrdering(ordering === field ? `-${field}` : field)}>
        {children}
        {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
      </UnstyledButton>
    </Table.Th>
  );
}

export function Pager({
  count,
  pageSize,
  page,
  onPage,
}: {
  count: number;
  pageSize: number;
  page: number;
  onPage(page: number): void;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {count} {count === 1 ? 'item' : 'items'}
      </Text>
      {pages > 1 && (
        <Group component="nav" aria-label="Pages">
          <Pagination
            total={pages}
            value={page}
            onChange={onPage}
            size="sm"
            // The arrow buttons hold only an icon: they need names (axe button-name).
            getControlProps={(control) => ({ 'aria-label': PAGE_CONTROL_NAMES[control] })}
          />
        </Group>
      )}
    </Group>
  );
}
