import { CAPABILITY_LABELS, PLUGIN_API_PREFIXES, type PluginCapability } from '../../shared/plugin-schemas.js';
import type { PluginMessage } from './bridge-protocol.js';

/**
 * Which capability each plugin message needs, and the refusal a plugin gets when its record lacks
 * it (docs/third-party-plugins.md "Capabilities"). Refused messages do nothing.
 */
export function capabilityFor(message: PluginMessage): PluginCapability | null {
  switch (message.type) {
    case 'update-risk':
    case 'create-and-update-risk':
    case 'navigate':
    case 'toast':
      return message.type;
    case 'request':
      return message.method === 'GET' ? 'api-read' : 'api-write';
    default:
      return null; // hello, pong, buttons: every plugin in a slot may offer buttons
  }
}

export function refusal(pluginName: string, capability: PluginCapability): string {
  return `${pluginName} may not do this: its record does not grant “${CAPABILITY_LABELS[capability]}” (${capability}). An administrator grants capabilities on the plugin’s record.`;
}

/**
 * Checks the path of a plugin's API request: relative to `/api`, inside the business areas a plugin
 * may reach, no `..`, no scheme, no query in the path. Answers the reason it is refused, or null.
 */
export function apiPathProblem(path: string): string | null {
  if (!/^\/[A-Za-z0-9._~\-/:@%]*$/.test(path) || path.includes('//') || /(^|\/)\.\.?(\/|$)/.test(path))
    return 'The request path must be an API path such as /quote/Q-1001/.';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'The request path must be an API path such as /quote/Q-1001/.';
  }
  if (decoded !== path && /\.\.|\/\/|[?#\\]/.test(decoded)) return 'The request path must not hide .. or a query.';
  if (!PLUGIN_API_PREFIXES.some((prefix) => path.startsWith(prefix)))
    return `Plugins may call ${PLUGIN_API_PREFIXES.join(', ')} only.`;
  return null;
}
