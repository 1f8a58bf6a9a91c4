import { US_STATES } from '@atrium/sdk/shared';
import { z } from 'zod';

export { US_STATES };

/**
 * Mass deliverables (spec: settings.views retrieveMassDeliverablesTable {stateId}): how the
 * documents a carrier sends in bulk go out, per state — printed and mailed, e-mailed, both, or not
 * at all — and, for notices sent ahead of a date, how many days ahead. A state without its own row
 * for a deliverable follows the carrier-wide default (state `*`). docs/settings.md.
 */
export const DELIVERABLES = [
  { key: 'declarations', label: 'Declarations page', ahead: false },
  { key: 'renewal-offer', label: 'Renewal offer', ahead: true },
  { key: 'invoice', label: 'Invoice', ahead: true },
  { key: 'cancellation-notice', label: 'Notice of cancellation', ahead: true },
  { key: 'reinstatement-notice', label: 'Notice of reinstatement', ahead: false },
  { key: 'claim-acknowledgement', label: 'Claim acknowledgement letter', ahead: false },
] as const;
export type DeliverableKey = (typeof DELIVERABLES)[number]['key'];

export const DELIVERY_METHODS = [
  { key: 'print', label: 'Print and mail' },
  { key: 'email', label: 'E-mail' },
  { key: 'print-and-email', label: 'Print, mail and e-mail' },
  { key: 'none', label: 'Do not send' },
] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number]['key'];

/** The carrier-wide default's state code. */
export const ALL_STATES = '*';

export const stateCodeSchema = z
  .string({ error: 'Choose a state.' })
  .trim()
  .toUpperCase()
  .refine((v) => v === ALL_STATES || (US_STATES as readonly string[]).includes(v), {
    message: 'Choose a state by its two-letter code, or * for every state.',
  });

const deliverableKeys = DELIVERABLES.map((d) => d.key) as [DeliverableKey, ...DeliverableKey[]];
const methodKeys = DELIVERY_METHODS.map((m) => m.key) as [DeliveryMethod, ...DeliveryMethod[]];

export const massDeliverableRowSchema = z.strictObject({
  deliverable: z.enum(deliverableKeys, { error: 'Not a deliverable.' }),
  delivery: z.enum(methodKeys, { error: 'Choose how it is sent.' }),
  /** Days ahead of the date the notice is about (renewal, due date, cancellation); null: not ahead. */
  days_before: z
    .number()
    .int('Whole days.')
    .min(0, 'Days ahead cannot be negative.')
    .max(365, 'At most 365 days ahead.')
    .nullable(),
});
export type MassDeliverableRow = z.infer<typeof massDeliverableRowSchema>;

/** PUT body: the state's own rows (the ones it overrides; the rest follow the default). */
export const massDeliverablesBody = z.strictObject({
  rows: z
    .array(massDeliverableRowSchema)
    .max(DELIVERABLES.length)
    .refine((rows) => new Set(rows.map((r) => r.deliverable)).size === rows.length, {
      message: 'Each deliverable once.',
    }),
});

/** One deliverable as a state sees it: its own setting, or the default's. */
export interface EffectiveDeliverable extends MassDeliverableRow {
  label: string;
  delivery_label: string;
  source: 'state' | 'default';
}
