import { Text } from '@mantine/core';

export interface RateTablesPanelProps {
  productId: number;
  versionId: number;
  riskTypeId: number;
  readOnly: boolean;
}

/** Placeholder until the panel lands; the props are the contract the catalog screens rely on. */
export default function RateTablesPanel(props: RateTablesPanelProps) {
  return <Text c="dimmed">Loading {props.readOnly ? 'read-only ' : ''}panel…</Text>;
}
