import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '@atrium/sdk';
import { isAgentRole } from '../users-api.js';

export { BatchFailureModal, ConfirmButton, ErrorAlert, type BatchFailure } from '@atrium/sdk';

/**
 * The Users area is closed to agents and agencies (spec): the route guard already refuses them
 * through `ViewModule` on `ui:users` (the Agent and Agency system policies deny it); this keeps the
 * rule even when a custom policy would let such a role see the module.
 */
export function UsersAreaGate({ children }: { children: ReactNode }) {
  const { effectiveRole } = useSession();
  if (isAgentRole(effectiveRole)) return <Navigate to="/forbidden" replace />;
  return <>{children}</>;
}
