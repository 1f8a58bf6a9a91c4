import { defineStatusLabels } from '@atrium/sdk';

/** Lines enums as the Lines screens show them (docs/ui.md, "Status badges"). */
export const versionStatusLabels = defineStatusLabels({
  draft: { label: 'Draft', tone: 'draft' },
  published: { label: 'Published', tone: 'success' },
  retired: { label: 'Retired', tone: 'neutral' },
});

/** Where a risk type's field or item comes from, relative to its parent product. */
export const inheritanceLabels = defineStatusLabels({
  own: { label: 'Own', tone: 'info' },
  overridden: { label: 'Overridden', tone: 'warning' },
  inherited: { label: 'Inherited', tone: 'neutral' },
});

export const transactionTypeLabels = defineStatusLabels({
  new_business: { label: 'New business', tone: 'info' },
  renewal: { label: 'Renewal', tone: 'accent' },
  endorsement: { label: 'Endorsement', tone: 'draft' },
  cancellation: { label: 'Cancellation', tone: 'danger' },
  reinstatement: { label: 'Reinstatement', tone: 'success' },
  rewrite: { label: 'Rewrite', tone: 'neutral' },
});
