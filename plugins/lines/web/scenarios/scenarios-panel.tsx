import { Text } from '@mantine/core';

export interface ScenariosPanelProps {
  productId: number;
  versionId: number;
  readOnly: boolean;
}

/** Placeholder until the panel lands; the props are the contract the catalog screens rely on. */
export default function ScenariosPanel(props: ScenariosPanelProps) {
  return <Text c="dimmed">Loading {props.readOnly ? 'read-only ' : ''}scenarios…</Text>;
}
