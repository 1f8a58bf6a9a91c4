import { Badge, type BadgeProps } from '@mantine/core';

/**
 * Status badges: every status enum a screen shows goes through a label map declared once per
 * module (e.g. plugins/claims/web/claims-labels.ts), so the screen reads "Pending approval", never
 * `pending_approval`. The tone picks the colour; the theme keeps every tone at AA contrast.
 */
export type StatusTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'draft' | 'accent';

export interface StatusLabel {
  label: string;
  tone: StatusTone;
}

/** One module's enum: value → label and tone. */
export type StatusLabels<Value extends string = string> = Readonly<Record<Value, StatusLabel>>;

const TONE_COLOR: Record<StatusTone, string> = {
  neutral: 'gray',
  info: 'blue',
  success: 'green',
  warning: 'orange',
  danger: 'red',
  draft: 'violet',
  accent: 'teal',
};

/** Declares a label map with its value type kept (`defineStatusLabels({ open: { … } })`). */
export function defineStatusLabels<Value extends string>(labels: Record<Value, StatusLabel>): StatusLabels<Value> {
  return labels;
}

/**
 * `pending_approval` → "Pending approval", `payment.post` → "Payment post": the fallback for a value
 * a map does not know yet, so a new server value still reads as words.
 */
export function humanizeEnum(value: string): string {
  const words = value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_.\-\s]+/)
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of `value` in `labels`, or the value in words. */
export function statusLabel(labels: StatusLabels, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '–';
  return labels[value]?.label ?? humanizeEnum(value);
}

export interface StatusBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  labels: StatusLabels;
  value: string | null | undefined;
}

export function StatusBadge({ labels, value, variant = 'light', size = 'sm', ...rest }: StatusBadgeProps) {
  if (value === null || value === undefined || value === '') return null;
  const known = labels[value];
  return (
    <Badge
      variant={variant}
      size={size}
      radius="sm"
      color={TONE_COLOR[known?.tone ?? 'neutral']}
      tt="none"
      data-status={value}
      {...rest}
    >
      {known?.label ?? humanizeEnum(value)}
    </Badge>
  );
}
