import type { Queryable } from './define-server-plugin.js';
import { createServiceRef, type ServiceRef } from './services.js';

/**
 * Which third-party UI plugin a call was made for (issue 22, auditing a plugin's change). The host's
 * plugin runtime marks the calls it makes on a plugin's behalf with the `X-Atrium-Plugin` header
 * (the plugin's record id); a module that audits such a change asks this service, provided by the
 * ui-plugins module, whether that plugin may do it. The ref lives in the SDK so that the modules a
 * plugin acts on (quote) and the plugin runtime do not import each other.
 */
export const ACTING_PLUGIN_HEADER = 'x-atrium-plugin';

/**
 * The capabilities (docs/third-party-plugins.md) under which a plugin's call can be made: a bridge
 * event (`update-risk`, `create-and-update-risk`) or an API request the host made for it (`api-write`).
 */
export type ActingPluginCapability = 'update-risk' | 'create-and-update-risk' | 'api-write';

export type ActingPluginAnswer =
  | { ok: true; id: string; name: string }
  /** Why the call is refused (no such plugin, disabled, or the capability not granted). */
  | { ok: false; message: string };

// A type, not an interface: a service's methods need the implicit index signature.
export type ActingPlugins = {
  /** The enabled plugin `id` (its name) when its record grants one of `capabilities`; otherwise why not. */
  check(tx: Queryable, id: string, capabilities: readonly ActingPluginCapability[]): Promise<ActingPluginAnswer>;
};

export const ACTING_PLUGINS: ServiceRef<ActingPlugins> = createServiceRef<ActingPlugins>('ui-plugins.acting-plugins');
