import { defineStatusLabels } from '@atrium/sdk';

/** The event prefixes a subscription offers (spec: All modules / Lines / Quote / Policies; and Claims). */
export const EVENT_PREFIXES = [
  { value: '*', label: 'All modules' },
  { value: 'lines', label: 'Lines' },
  { value: 'quote', label: 'Quote' },
  { value: 'policies', label: 'Policies' },
  { value: 'claims', label: 'Claims' },
];

export function prefixLabel(value: string): string {
  return EVENT_PREFIXES.find((p) => p.value === value)?.label ?? value;
}

export const subscriptionStatusLabels = defineStatusLabels({
  pending: { label: 'Starting', tone: 'info' },
  active: { label: 'Active', tone: 'success' },
  disabled: { label: 'Disabled', tone: 'neutral' },
});

export const messageStatusLabels = defineStatusLabels({
  pending: { label: 'Queued', tone: 'info' },
  retrying: { label: 'Retrying', tone: 'warning' },
  succeeded: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  skipped: { label: 'Skipped (subscription disabled)', tone: 'neutral' },
});

export const exceptionStatusLabels = defineStatusLabels({
  open: { label: 'Open', tone: 'danger' },
  retrying: { label: 'Retrying', tone: 'warning' },
  resolved: { label: 'Resolved', tone: 'success' },
  dismissed: { label: 'Dismissed', tone: 'neutral' },
});

const KINDS: Record<string, string> = {
  'webhook-delivery': 'Webhook delivery',
  'integration-step': 'Integration step',
  renewal: 'Renewal',
  'policy-transaction': 'Policy transaction',
};
export const kindLabel = (kind: string) => KINDS[kind] ?? kind.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

const MODULES: Record<string, string> = {
  integrations: 'Integrations',
  claims: 'Claims',
  lines: 'Lines',
  quote: 'Quote',
  policies: 'Policies',
  access: 'Access',
  identity: 'Users',
};
export const moduleLabel = (id: string) => MODULES[id] ?? id.replace(/^./, (c) => c.toUpperCase());

export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '–');

export const mappingStatusLabels = defineStatusLabels({
  draft: { label: 'Draft', tone: 'warning' },
  published: { label: 'Published', tone: 'success' },
});

export const runStatusLabels = defineStatusLabels({
  'never run': { label: 'Never run', tone: 'neutral' },
  queued: { label: 'Queued', tone: 'neutral' },
  running: { label: 'Running', tone: 'info' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
});
