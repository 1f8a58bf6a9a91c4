import { defineStatusLabels, humanizeEnum, type StatusLabels } from '@atrium/sdk';

/**
 * Every claims enum as people read it (docs/ui.md, "Status badges"). Screens show these labels,
 * never the stored values (`pending_approval`, `payment_void` …).
 */
export const claimStatusLabels = defineStatusLabels({
  draft: { label: 'Draft', tone: 'draft' },
  open: { label: 'Open', tone: 'info' },
  reopened: { label: 'Reopened', tone: 'warning' },
  closed: { label: 'Closed', tone: 'neutral' },
});

export const exposureStatusLabels = defineStatusLabels({
  open: { label: 'Open', tone: 'info' },
  reopened: { label: 'Reopened', tone: 'warning' },
  closed: { label: 'Closed', tone: 'neutral' },
});

export const transactionStatusLabels = defineStatusLabels({
  pending_approval: { label: 'Pending approval', tone: 'warning' },
  posted: { label: 'Posted', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
  void: { label: 'Void', tone: 'neutral' },
});

export const transactionTypeLabels = defineStatusLabels({
  reserve: { label: 'Reserve', tone: 'info' },
  payment: { label: 'Payment', tone: 'accent' },
  recovery: { label: 'Recovery', tone: 'success' },
  payment_void: { label: 'Payment void', tone: 'neutral' },
  recovery_void: { label: 'Recovery void', tone: 'neutral' },
});

export const reserveCategoryLabels = defineStatusLabels({
  indemnity: { label: 'Indemnity', tone: 'info' },
  expense: { label: 'Expense', tone: 'accent' },
  legal: { label: 'Legal', tone: 'draft' },
  medical: { label: 'Medical', tone: 'success' },
});

export const recoveryTypeLabels = defineStatusLabels({
  salvage: { label: 'Salvage', tone: 'neutral' },
  subrogation: { label: 'Subrogation', tone: 'neutral' },
});

export const paymentMethodLabels = defineStatusLabels({
  check: { label: 'Check', tone: 'neutral' },
  ach: { label: 'ACH', tone: 'neutral' },
  wire: { label: 'Wire', tone: 'neutral' },
  card: { label: 'Card', tone: 'neutral' },
});

export const importRunStatusLabels = defineStatusLabels({
  queued: { label: 'Queued', tone: 'neutral' },
  running: { label: 'Running', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  interrupted: { label: 'Interrupted', tone: 'warning' },
});

export const importOutcomeLabels = defineStatusLabels({
  imported: { label: 'Imported', tone: 'success' },
  skipped: { label: 'Skipped', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
});

export const emailStatusLabels = defineStatusLabels({
  queued: { label: 'Queued', tone: 'neutral' },
  sending: { label: 'Sending', tone: 'info' },
  sent: { label: 'Sent', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
});

export const limitBasisLabels = defineStatusLabels({
  per_occurrence: { label: 'Per occurrence', tone: 'neutral' },
  per_day: { label: 'Per day', tone: 'neutral' },
  per_person: { label: 'Per person', tone: 'neutral' },
  aggregate: { label: 'Aggregate', tone: 'neutral' },
});

/** Select options for an enum, in the map's order: `[{ value: 'open', label: 'Open' }, …]`. */
export function enumOptions(labels: StatusLabels, values: readonly string[] = Object.keys(labels)) {
  return values.map((value) => ({ value, label: labels[value]?.label ?? humanizeEnum(value) }));
}

const SUBJECTS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(transactionTypeLabels).map(([value, { label }]) => [value, label])),
  payment_batch: 'Payment batch',
  claim: 'Claim',
  exposure: 'Exposure',
  attachment: 'Attachment',
  contact: 'Contact',
  email: 'E-mail',
  policy: 'Policy',
  product: 'Product',
  transaction: 'Transaction',
};

const VERBS: Record<string, string> = {
  post: 'posted',
  request_approval: 'sent for approval',
  approve: 'approved',
  reject: 'rejected',
  void: 'voided',
  issue: 'issued',
  run: 'run',
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  read: 'viewed',
  assign: 'assigned',
  unassign: 'unassigned',
  tags: 'tags changed',
  move: 'moved',
  'read-ssn': 'SSN viewed in full',
};

/**
 * An audit entry's action as a sentence: (`payment.post`, transaction) → "Payment posted";
 * (`update`, claim) → "Claim updated".
 */
export function auditActionLabel(action: string, entityType?: string | null): string {
  const [first = '', second] = action.split('.');
  const subjectKey = second ? first : (entityType ?? '');
  const verbKey = second ?? first;
  const subject = SUBJECTS[subjectKey] ?? (subjectKey ? humanizeEnum(subjectKey) : '');
  const verb = VERBS[verbKey] ?? humanizeEnum(verbKey).toLowerCase();
  return subject ? `${subject} ${verb}` : humanizeEnum(verb);
}
