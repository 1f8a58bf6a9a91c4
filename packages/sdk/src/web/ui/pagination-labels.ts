/**
 * Names for Mantine Pagination's arrow buttons, which hold only an icon (axe button-name, critical):
 * `<Pagination … getControlProps={paginationControlProps} />` on every paginated list.
 */
const PAGE_CONTROL_NAMES = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export function paginationControlProps(control: keyof typeof PAGE_CONTROL_NAMES): { 'aria-label': string } {
  return { 'aria-label': PAGE_CONTROL_NAMES[control] };
}
