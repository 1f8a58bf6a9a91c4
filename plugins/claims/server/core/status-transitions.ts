import { ApiError, attributeError } from '@atrium/sdk/server';
import { findTransition, nextStatuses } from '../../shared/statuses.js';

/**
 * Checks a status move against the one transition table (shared/statuses.ts): an illegal move is a
 * 400 on /data/attributes/status naming the allowed ones; a move that needs a reason without one is
 * a 400 on /data/attributes/status_change_reason.
 */
export function assertTransition(
  entity: 'claim' | 'exposure',
  from: string,
  to: string,
  reason: string | null | undefined,
): void {
  const transition = findTransition(entity, from, to);
  if (!transition) {
    const allowed = nextStatuses(entity, from);
    throw new ApiError(
      400,
      `A${entity === 'exposure' ? 'n' : ''} ${entity} cannot move from ${from} to ${to}. ` +
        (allowed.length ? `From ${from} it may move to: ${allowed.join(', ')}.` : `No move is allowed from ${from}.`),
      { source: { pointer: '/data/attributes/status' }, code: 'illegal_status_transition' },
    );
  }
  if (transition.reason_required && !reason?.trim()) {
    throw attributeError('status_change_reason', `A reason is required to move from ${from} to ${to}.`);
  }
}
