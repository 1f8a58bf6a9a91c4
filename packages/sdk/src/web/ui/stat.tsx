import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Key figures (KPI cards): a grid that fits as many as the width allows, each at least wide enough
 * for a seven-figure amount, so a number is never clipped ("12,925.(") — it wraps to a new row of
 * cards instead.
 */
export function StatGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="atrium-stat-grid" role="group" aria-label={label}>
      {children}
    </div>
  );
}

export function Stat({
  label,
  value,
  hint,
  valueProps,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** e.g. `data-testid` for tests that read one figure. */
  valueProps?: Record<string, string>;
}) {
  return (
    <Paper withBorder p="sm" radius="sm" className="atrium-stat">
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fw={650} fz="lg" className="atrium-stat-value" {...valueProps}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}
