import { defineStatusLabels } from '@atrium/sdk';

/** User account states as the Users screens show them (docs/ui.md, "Status badges"). */
export const userStatusLabels = defineStatusLabels({
  CONFIRMED: { label: 'Confirmed', tone: 'success' },
  FORCE_CHANGE_PASSWORD: { label: 'Must change password', tone: 'warning' },
  RESET_REQUIRED: { label: 'Password reset required', tone: 'warning' },
});

export const userActiveLabels = defineStatusLabels({
  active: { label: 'Active', tone: 'success' },
  inactive: { label: 'Inactive', tone: 'neutral' },
});
