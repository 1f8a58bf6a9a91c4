import { defineStatusLabels } from '@atrium/sdk';

/** Access enums as the Access screens show them (docs/ui.md, "Status badges"). */
export const policyTypeLabels = defineStatusLabels({
  system: { label: 'System', tone: 'neutral' },
  custom: { label: 'Custom', tone: 'info' },
});
