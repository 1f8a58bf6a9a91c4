import type {
  AccessEvaluator,
  Evaluation,
  EvaluationRequest,
  Principal,
  RecordFilter,
  RecordFilterRequest,
} from '@atrium/sdk/server';
import type { AccessSnapshot } from './access-snapshot.js';
import type { AccessState } from './access-state.js';

/**
 * The evaluator every protected route is checked by, and /api/access/evaluations answers with.
 *
 * - a caller who holds no role at all: 'no-role-assignment' (the web side sends them to select-role,
 *   which says they have no role assignments);
 * - a caller without an effective role, or acting in a role they do not hold or that no longer
 *   exists: 'no-effective-role' (the web side asks them to choose one);
 * - otherwise the statements of the policies assigned to the effective role decide.
 *
 * The roles a principal holds are the authenticator's answer (identity asks this module's role
 * directory for them); the evaluator does not second-guess it.
 */
export const NO_ROLE_ASSIGNMENT: Evaluation = Object.freeze({ allowed: false, reason: 'no-role-assignment' });
export const NO_EFFECTIVE_ROLE: Evaluation = Object.freeze({ allowed: false, reason: 'no-effective-role' });

export function decideWithSnapshot(
  snapshot: AccessSnapshot,
  principal: Principal,
  request: EvaluationRequest,
): Evaluation {
  const role = snapshot.role(principal.effectiveRole!);
  if (!role) return NO_EFFECTIVE_ROLE;
  return snapshot.policySet(role.id).decide(principal, request);
}

/** The records a principal may act on, for lists: nothing without a valid effective role, as in evaluate. */
export function recordFilterWithSnapshot(
  snapshot: AccessSnapshot,
  principal: Principal,
  request: RecordFilterRequest,
): RecordFilter {
  const role = snapshot.role(principal.effectiveRole!);
  if (!role) return false;
  return snapshot.policySet(role.id).recordFilter(principal, request);
}

export function createAccessEvaluator(state: AccessState): AccessEvaluator {
  return {
    evaluate(principal, request) {
      if (principal.roles.length === 0) return NO_ROLE_ASSIGNMENT;
      const effectiveRole = principal.effectiveRole;
      if (!effectiveRole || !principal.roles.includes(effectiveRole)) return NO_EFFECTIVE_ROLE;
      const snapshot = state.current();
      if (snapshot instanceof Promise) return snapshot.then((loaded) => decideWithSnapshot(loaded, principal, request));
      return decideWithSnapshot(snapshot, principal, request);
    },
    recordFilter(principal, request) {
      if (principal.roles.length === 0) return false;
      const effectiveRole = principal.effectiveRole;
      if (!effectiveRole || !principal.roles.includes(effectiveRole)) return false;
      const snapshot = state.current();
      if (snapshot instanceof Promise) {
        return snapshot.then((loaded) => recordFilterWithSnapshot(loaded, principal, request));
      }
      return recordFilterWithSnapshot(snapshot, principal, request);
    },
  };
}
