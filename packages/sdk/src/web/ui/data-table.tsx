import { Table, type TableProps } from '@mantine/core';

/**
 * A table that scrolls sideways inside its own box (never the page) with its first column pinned,
 * so the row's name stays in view while the figures scroll. Dense by default: data-heavy screens
 * show more rows. `label` names the table (tests find it with getByRole('table', { name })); the
 * scroll box is focusable so keyboard users can scroll it too, and carries no second name.
 */
export function DataTable({
  label,
  stickyFirstColumn = true,
  children,
  ...tableProps
}: TableProps & { label: string; stickyFirstColumn?: boolean }) {
  return (
    <div className="atrium-table-scroll" data-sticky-first={stickyFirstColumn || undefined} tabIndex={0}>
      <Table verticalSpacing={6} horizontalSpacing="sm" fz="sm" highlightOnHover aria-label={label} {...tableProps}>
        {children}
      </Table>
    </div>
  );
}
