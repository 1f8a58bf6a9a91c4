import { z } from 'zod';

/**
 * The messages between the host and a sandboxed plugin (docs/third-party-plugins.md "Bridge
 * protocol"), version 1. The host posts one `connect` to the iframe's window with a MessagePort;
 * everything after that travels on the port. What a plugin sends is parsed here, at the boundary:
 * anything larger than MAX_MESSAGE_CHARS, not JSON-shaped, or not one of these types is dropped.
 */
export const PROTOCOL_VERSION = 1;
/** The first message, on the iframe's window (the only one not on the port). */
export const CONNECT = 'atrium:connect';
export const MAX_MESSAGE_CHARS = 64 * 1024;

const operation = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string().max(300),
  from: z.string().max(300).optional(),
  value: z.unknown().optional(),
});
export const jsonPatch = z.array(operation).min(1).max(100);
export type JsonPatch = z.infer<typeof jsonPatch>;

const callId = z.string().min(1).max(64);
const routeValues = z.record(z.string().max(50), z.union([z.string().max(200), z.number()]));
const queryValues = z.record(z.string().max(50), z.union([z.string().max(500), z.number(), z.boolean()]));

/** One palette result a plugin offers: plain text, and where it leads (a route) or what it asks (an event). */
export const searchResult = z
  .object({
    id: z.string().min(1).max(64),
    title: z.string().trim().min(1).max(120),
    subtitle: z.string().trim().max(200).optional(),
    route: z
      .object({ name: z.string().min(1).max(100), params: routeValues.optional(), query: queryValues.optional() })
      .optional(),
    event: z.string().min(1).max(64).optional(),
  })
  .refine((r) => (r.route === undefined) !== (r.event === undefined), 'A result has either a route or an event.');
export type SearchResult = z.infer<typeof searchResult>;

export const pluginMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.number().int() }),
  z.object({ type: z.literal('pong'), n: z.number().int() }),
  z.object({
    type: z.literal('buttons'),
    buttons: z.array(z.object({ id: z.string().min(1).max(64), text: z.string().trim().min(1).max(40) })).max(5),
  }),
  z.object({ type: z.literal('update-risk'), call: callId, patch: jsonPatch }),
  /** New risks under the slot's risk: each of a child risk type, its answers as a patch on an empty risk. */
  z.object({
    type: z.literal('create-and-update-risk'),
    call: callId,
    risks: z
      .array(z.object({ risk_type: z.string().min(1).max(100), patch: jsonPatch }))
      .min(1)
      .max(10),
  }),
  /** Navigate the host by a route's spec name (`quote:page`) and its params; never by a raw URL. */
  z.object({
    type: z.literal('navigate'),
    call: callId,
    route: z.string().min(1).max(100),
    params: routeValues.optional(),
    query: queryValues.optional(),
  }),
  /** An API request the host performs as the signed-in user; the plugin gets the status and JSON body. */
  z.object({
    type: z.literal('request'),
    call: callId,
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().min(1).max(500),
    query: queryValues.optional(),
    body: z.unknown().optional(),
  }),
  /** Answers the host's `search` (palette): at most 20 results, each a route or an event for the plugin. */
  z.object({ type: z.literal('search-results'), call: callId, items: z.array(searchResult).max(20) }),
  z.object({
    type: z.literal('toast'),
    message: z.string().trim().min(1).max(200),
    kind: z.enum(['info', 'success', 'error']).optional(),
  }),
]);
export type PluginMessage = z.infer<typeof pluginMessage>;

/** Host → plugin, on the port. */
export type HostMessage =
  | { type: 'welcome'; version: number; slot: string; context: unknown; configuration: unknown }
  | { type: 'context'; context: unknown }
  | { type: 'ping'; n: number }
  | { type: 'button-clicked'; id: string }
  /** Palette: the user ran one of the record's event commands, or chose a result with an event. */
  | { type: 'command'; id: string }
  /** Palette: what the user typed; the plugin answers `search-results` with the same call. */
  | { type: 'search'; call: string; query: string }
  | { type: 'result'; call: string; ok: true; value?: unknown }
  | { type: 'result'; call: string; ok: false; error: string }
  /** A message without a call (a toast) that the plugin's record does not allow. */
  | { type: 'refused'; request: string; error: string };

/** The plugin's message, or null when it must be dropped (too big, not plain data, unknown). */
export function parsePluginMessage(data: unknown): PluginMessage | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    return null; // cycles, BigInt: not a message
  }
  if (text === undefined || text.length > MAX_MESSAGE_CHARS) return null;
  const parsed = pluginMessage.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}
