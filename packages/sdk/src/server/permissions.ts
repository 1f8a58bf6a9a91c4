import type { Permission, PermissionDeclaration } from './access.js';

/**
 * A plugin's permissions declared once, with typed helpers:
 *
 * - every resource is `<plugin>:<thing>` and every action has a description (the access module
 *   lists them);
 * - the module's `ui:<plugin>` ViewModule permission is added for you (the host hides the module's
 *   pages, links, commands and chords from roles without it);
 * - `grants` say which system roles get what by default. The access module keeps them in one
 *   read-only system policy per plugin and role, and applies them at start when the plugin is new
 *   or `grantVersion` rose. An administrator's own changes live in custom policies and
 *   assignments, which start never touches;
 * - `can(thing, action)` gives a route's `config.access`, type-checked against the declaration.
 */

/** The roles every installation has (the access module creates them). Administrators hold `*`. */
export const SYSTEM_ROLES = [
  'Administrator',
  'Claims Adjuster',
  'Underwriter',
  'Product and Rules Author',
  'Agent',
  'Agency',
] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export const VIEW_MODULE = 'ViewModule';

type ResourceSpec = { actions: Record<string, string> };

export interface PermissionSetInput<Resources extends Record<string, ResourceSpec>> {
  /** Raise it when `grants` change: start then applies the new defaults to the system policies. */
  grantVersion: number;
  /** What the module is, for `ui:<plugin>` ViewModule's description. */
  module: string;
  resources: Resources;
  /**
   * Default grants per system role: `'view'` (the module's ViewModule) and, per thing, its actions.
   * Administrators already hold everything and need no entry.
   */
  grants: Partial<
    Record<
      Exclude<SystemRole, 'Administrator'>,
      { view?: boolean } & { [Thing in keyof Resources]?: readonly (keyof Resources[Thing]['actions'] & string)[] }
    >
  >;
}

/** Default grants of one plugin, as the access module stores them. */
export interface DefaultGrants {
  plugin: string;
  grantVersion: number;
  roles: { role: SystemRole; permissions: Permission[] }[];
}

export interface PermissionSet<Resources extends Record<string, ResourceSpec>> {
  readonly kind: 'permission-set';
  readonly plugin: string;
  /** Every permission, `ui:<plugin>` ViewModule first, for `defineServerPlugin({ permissions })`. */
  readonly declarations: PermissionDeclaration[];
  readonly defaultGrants: DefaultGrants;
  /** The module's ViewModule permission. */
  readonly view: Permission;
  /** `can('entry', 'read')` → `{ resource: 'diary:entry', action: 'read' }`; anything undeclared does not compile. */
  can<Thing extends keyof Resources & string>(
    thing: Thing,
    action: keyof Resources[Thing]['actions'] & string,
  ): Permission;
}

const THING = /^[a-z][a-z0-9-]*$/;

export function definePermissions<const Resources extends Record<string, ResourceSpec>>(
  plugin: string,
  input: PermissionSetInput<Resources>,
): PermissionSet<Resources> {
  if (!Number.isInteger(input.grantVersion) || input.grantVersion < 1) {
    throw new Error(`Plugin '${plugin}': grantVersion must be a positive integer.`);
  }
  const view: Permission = { resource: `ui:${plugin}`, action: VIEW_MODULE };
  const declarations: PermissionDeclaration[] = [{ ...view, description: `See ${input.module}.` }];
  for (const [thing, spec] of Object.entries(input.resources)) {
    if (!THING.test(thing)) throw new Error(`Plugin '${plugin}': resource '${thing}' must be lowercase with dashes.`);
    for (const [action, description] of Object.entries(spec.actions)) {
      declarations.push({ resource: `${plugin}:${thing}`, action, description });
    }
  }
  const roles: DefaultGrants['roles'] = [];
  for (const [role, grant] of Object.entries(input.grants) as [SystemRole, Record<string, unknown>][]) {
    if (!SYSTEM_ROLES.includes(role)) throw new Error(`Plugin '${plugin}': '${role}' is not a system role.`);
    const permissions: Permission[] = grant.view ? [view] : [];
    for (const [thing, actions] of Object.entries(grant)) {
      if (thing === 'view') continue;
      for (const action of actions as string[]) {
        if (!input.resources[thing]?.actions[action]) {
          throw new Error(`Plugin '${plugin}': ${role} is granted '${thing}' ${action}, which is not declared.`);
        }
        permissions.push({ resource: `${plugin}:${thing}`, action });
      }
    }
    if (permissions.length > 0) roles.push({ role, permissions });
  }
  return Object.freeze({
    kind: 'permission-set' as const,
    plugin,
    declarations,
    defaultGrants: { plugin, grantVersion: input.grantVersion, roles },
    view,
    can: (thing: string, action: string) => ({ resource: `${plugin}:${thing}`, action }),
  });
}

export function isPermissionSet(value: unknown): value is PermissionSet<Record<string, ResourceSpec>> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'permission-set';
}

/**
 * Applies plugins' default grants (provided by the access module, run by the server at start
 * after the seed): one system policy per plugin and role, rewritten when the grant version rose.
 */
export interface PermissionDefaultsInstaller {
  apply(plugins: readonly { id: string; title?: string; defaultGrants?: DefaultGrants }[]): Promise<void>;
}
