import { Group, Stack, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { QueryState, type QueryLike } from './states.js';

/**
 * The one shape of a My work widget (docs/my-work.md): a query's records as a list of one-line rows,
 * an empty state when there are none, and a footer (usually a link to the rest). Each row's key (a
 * claim or quote number) keeps to one line with `MY_WORK_KEY_STYLE`; the description gives way.
 */
export function MyWorkList<T, R>({
  query,
  rows,
  rowKey,
  empty,
  children,
  footer,
}: {
  query: QueryLike<T>;
  rows: (data: T) => readonly R[];
  rowKey: (row: R) => string | number;
  empty: ReactNode;
  /** One row's cells, left to right. */
  children: (row: R) => ReactNode;
  footer?: (data: T, shown: readonly R[]) => ReactNode;
}) {
  return (
    <QueryState query={query} isEmpty={(data) => rows(data).length === 0} empty={empty}>
      {(data) => {
        const shown = rows(data);
        return (
          <Stack gap={6}>
            <Stack gap={4} component="ul" className="atrium-my-work-list">
              {shown.map((row) => (
                <Group key={rowKey(row)} component="li" justify="space-between" wrap="nowrap" gap="sm">
                  {children(row)}
                </Group>
              ))}
            </Stack>
            {footer?.(data, shown)}
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** A row's key (its link): never broken at a hyphen ("CLM-" / "000039" at 1024 px). */
export const MY_WORK_KEY_STYLE: CSSProperties = { flex: 'none', whiteSpace: 'nowrap' };

/** A row's description: dimmed, and the part that is cut short when the row is narrow. */
export function MyWorkDetail({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" truncate style={{ flex: 1, minWidth: 0 }}>
      {children}
    </Text>
  );
}

/** A row's trailing value (an amount, a date): one line, never shrunk. */
export function MyWorkAside({ children, dimmed, mono }: { children: ReactNode; dimmed?: boolean; mono?: boolean }) {
  return (
    <Text size="sm" c={dimmed ? 'dimmed' : undefined} ff={mono ? 'monospace' : undefined} style={MY_WORK_KEY_STYLE}>
      {children}
    </Text>
  );
}
