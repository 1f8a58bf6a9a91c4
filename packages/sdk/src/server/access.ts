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

/** The operators of record conditions (the access module's statement language). */
export type RecordFilterOperator =
  'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'not_in' | 'contains' | 'starts_with' | 'exists';

/** One side of a residual comparison: an attribute of the record, or a value already known. */
export type RecordFilterTerm = { record: string } | { value: unknown };

/**
 * A residual condition over `record.*` attributes, what is left of a role's policies once the
 * principal and the context are known (see docs/access.md, "Record filters on lists"). Three-valued:
 * `true`, `false`, `null` (unknown), `all`/`any`/`not` in Kleene's logic, and comparisons with the
 * in-memory semantics of the evaluator. A record is visible exactly when the filter is TRUE.
 */
export type RecordFilter =
  | boolean
  | null
  | { all: RecordFilter[] }
  | { any: RecordFilter[] }
  | { not: RecordFilter }
  | { operator: RecordFilterOperator; left: RecordFilterTerm; right?: RecordFilterTerm };

/** A permission without a record: which records of `resource` may the principal `action`? */
export interface RecordFilterRequest extends Permission {
  context?: Record<string, unknown>;
}

export interface AccessEvaluator {
  evaluate(principal: Principal, request: EvaluationRequest): Evaluation | Promise<Evaluation>;
  /**
   * Partial evaluation for lists: the condition a record must meet so that `evaluate` with that
   * record allows. Optional; lists of an evaluator without it are not filtered by record.
   */
  recordFilter?(principal: Principal, request: RecordFilterRequest): RecordFilter | Promise<RecordFilter>;
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
