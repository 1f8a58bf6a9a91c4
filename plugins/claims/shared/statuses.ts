/**
 * The statuses claims and exposures move through, and every allowed move. One table, shared by the
 * server (which refuses any other move with a 400) and the web screens (which offer only these).
 * A claim is a draft while its FNOL is being entered; submitting the FNOL opens it.
 */
export type ClaimStatus = 'draft' | 'open' | 'closed' | 'reopened';
export type ExposureStatus = 'open' | 'closed' | 'reopened';

export interface StatusTransition {
  entity: 'claim' | 'exposure';
  from_status: string;
  to_status: string;
  /** What the move is called on screen. */
  action: string;
  /** Whether status_change_reason must be given. */
  reason_required: boolean;
}

export const STATUS_TRANSITIONS: readonly StatusTransition[] = [
  { entity: 'claim', from_status: 'draft', to_status: 'open', action: 'Submit Claim', reason_required: false },
  { entity: 'claim', from_status: 'open', to_status: 'closed', action: 'Close Claim', reason_required: true },
  { entity: 'claim', from_status: 'closed', to_status: 'reopened', action: 'Reopen Claim', reason_required: true },
  { entity: 'claim', from_status: 'reopened', to_status: 'closed', action: 'Close Claim', reason_required: true },
  { entity: 'exposure', from_status: 'open', to_status: 'closed', action: 'Close Exposure', reason_required: true },
  {
    entity: 'exposure',
    from_status: 'closed',
    to_status: 'reopened',
    action: 'Reopen Exposure',
    reason_required: true,
  },
  { entity: 'exposure', from_status: 'reopened', to_status: 'closed', action: 'Close Exposure', reason_required: true },
];

export const CLAIM_STATUSES: readonly ClaimStatus[] = ['draft', 'open', 'closed', 'reopened'];
export const EXPOSURE_STATUSES: readonly ExposureStatus[] = ['open', 'closed', 'reopened'];

export function findTransition(entity: 'claim' | 'exposure', from: string, to: string): StatusTransition | undefined {
  return STATUS_TRANSITIONS.find((t) => t.entity === entity && t.from_status === from && t.to_status === to);
}

/** The statuses a record in `from` may move to. */
export function nextStatuses(entity: 'claim' | 'exposure', from: string): string[] {
  return STATUS_TRANSITIONS.filter((t) => t.entity === entity && t.from_status === from).map((t) => t.to_status);
}
