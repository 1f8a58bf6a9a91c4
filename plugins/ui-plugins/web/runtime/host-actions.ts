import { isApiRequestError, type AnyRouteRef, type HostServices } from '@atrium/sdk';
import type { PluginMessage } from './bridge-protocol.js';
import { apiPathProblem } from './plugin-capabilities.js';

/**
 * What a plugin may ask of the host wherever it runs (a slot or the palette): a toast, navigation by
 * route name, an API request as the signed-in user. The caller has already checked the capability
 * (plugin-capabilities.ts); these check the request itself.
 */
const TOAST_WINDOW_MS = 10_000;
const TOASTS_PER_WINDOW = 3;

export interface ActionTarget {
  plugin: { id: string; name: string };
  /** Sends records with an id, so quote can audit what the plugin changes (X-Atrium-Plugin). */
  registered: boolean;
  services: HostServices;
  routeByName(name: string): AnyRouteRef | undefined;
  /** Times of the plugin's recent toasts (rationed). */
  toasts: number[];
  answer(call: string, error?: string, value?: unknown): void;
}

/** The link for a route name and params, or why there is none. */
export function routeLink(
  routeByName: ActionTarget['routeByName'],
  name: string,
  params?: Record<string, string | number | boolean>,
  query?: Record<string, string | number | boolean>,
): { ok: true; to: string } | { ok: false; error: string } {
  const route = routeByName(name);
  if (!route) return { ok: false, error: `There is no route ${name}.` };
  try {
    return { ok: true, to: route.link((params ?? {}) as never, query) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'The route’s params do not fit.' };
  }
}

/** Handles a toast, navigate or request message; answers false for any other message. */
export function runHostAction(message: PluginMessage, target: ActionTarget): boolean {
  const { plugin, services, answer } = target;
  if (message.type === 'toast') {
    // A plugin's toasts are rationed, so a chatty one cannot bury the page's own.
    const now = Date.now();
    const recent = target.toasts.filter((t) => now - t < TOAST_WINDOW_MS);
    target.toasts.splice(0, target.toasts.length, ...recent);
    if (recent.length >= TOASTS_PER_WINDOW) return true;
    target.toasts.push(now);
    services.showToast({ message: `${plugin.name}: ${message.message}`, kind: message.kind ?? 'info' });
    return true;
  }
  if (message.type === 'navigate') {
    const link = routeLink(target.routeByName, message.route, message.params, message.query);
    if (!link.ok) answer(message.call, link.error);
    else {
      services.navigate(link.to);
      answer(message.call);
    }
    return true;
  }
  if (message.type === 'request') {
    const problem = apiPathProblem(message.path);
    if (problem) return (answer(message.call, problem), true);
    if (message.body !== undefined && (typeof message.body !== 'object' || message.body === null))
      return (answer(message.call, 'The request body must be a JSON object or array.'), true);
    // The host's client adds the user's token and role; the plugin sees only status and body.
    // A registered plugin's requests say whose they are, so a module that audits (quote) can.
    let status = 200;
    services.api
      .request(message.path, {
        method: message.method,
        query: message.query,
        body: message.body,
        ...(target.registered ? { headers: { 'X-Atrium-Plugin': plugin.id } } : {}),
        preventForbiddenRedirect: true,
        onResponse: (response) => void (status = response.status),
      })
      .then((body) => answer(message.call, undefined, { status, body: body ?? null }))
      .catch((error: unknown) =>
        isApiRequestError(error) && error.status > 0
          ? answer(message.call, undefined, { status: error.status, body: error.body ?? null })
          : answer(message.call, 'The request did not reach Atrium.'),
      );
    return true;
  }
  return false;
}
