/**
 * What a route declares about who may call it, and the evaluator contract the server core calls
 * before every handler. The access module (plugins/access) supplies the real evaluator; until it is
 * installed the core refuses every non-public route.
 */
export interface Permission {
  /** e.g. `claims:payment`, `ui:claims`, `lines:product`. */
  resource: string;
  /** e.g. `read`, `create`, `update`, `delete`, `ViewModule`. */
  action: string;
}

/**
 * - `public`: no authentication (health, sign-in, the SPA's assets).
 * - `authenticated`: any signed-in caller; for routes about the caller themself (`users/me`).
 * - a Permission: evaluated for the caller's effective role before the handler runs.
 */
export type RouteAccess = 'public' | 'authenticated' | Permission;

export interface PermissionDeclaration extends Permission {
  description: string;
}

/** The signed-in caller as the authenticator resolved them. */
export interface Principal {
  kind: 'user' | 'client';
  /** Stable id of the user or machine client. */
  subject: string;
  username: string;
  /** The role the caller acts in (effective-role header / chosen_role), null when none is set. */
  effectiveRole: string | null;
  roles: string[];
  attributes?: Record<string, unknown>;
}

export interface EvaluationRequest extends Permission {
  record?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

export interface Evaluation {
  allowed: boolean;
  /** Why access was refused, e.g. `no-role-assignment`, `no-effective-role`, `denied-by-statement`. */
  reason?: string;
}

export interface AccessEvaluator {
  evaluate(principal: Principal, request: EvaluationRequest): Evaluation | Promise<Evaluation>;
}

export interface Authenticator {
  /** Resolves the caller from the request's credentials; null when there are none. Throws 401 on bad ones. */
  authenticate(request: { headers: Record<string, string | string[] | undefined> }): Promise<Principal | null>;
}

/**
 * Which roles a user holds. The access module owns role assignments (to users and to groups) and
 * provides this; identity asks it when a user signs in and when it checks an effective role.
 */
export interface RoleDirectory {
  rolesOf(user: { username: string; groups?: string[] }): Promise<string[]>;
}

/** The platform services installed plugins provide, resolved when first used. */
export interface PlatformServices {
  readonly authenticator: Authenticator | null;
  readonly evaluator: AccessEvaluator | null;
  readonly roleDirectory: RoleDirectory | null;
}
