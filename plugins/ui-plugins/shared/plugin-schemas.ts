import { z } from 'zod';

/**
 * The slots a third-party plugin may fill, and the previous portal's names accepted as aliases
 * (issue 22 item 4). A record keeps the name it was registered with; the host resolves aliases.
 */
export const PLUGIN_SLOTS = ['quote:risk-edit:button-row'] as const;
export const SLOT_ALIASES: Record<string, (typeof PLUGIN_SLOTS)[number]> = {
  'britequote:risk-edit:button-row': 'quote:risk-edit:button-row',
};
export const SLOT_LABELS: Record<(typeof PLUGIN_SLOTS)[number], string> = {
  'quote:risk-edit:button-row': 'Quote · risk edit · button row',
};

export function canonicalSlot(name: string): (typeof PLUGIN_SLOTS)[number] | undefined {
  if ((PLUGIN_SLOTS as readonly string[]).includes(name)) return name as (typeof PLUGIN_SLOTS)[number];
  return SLOT_ALIASES[name];
}

/** A path inside a plugin: `index.html`, `js/app.js`; no `..`, no leading slash. */
export const pluginFilePath = z
  .string()
  .trim()
  .min(1, 'This field is required.')
  .max(200)
  .regex(
    /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/,
    'A file path is made of letters, digits, dots, dashes and underscores, separated by /.',
  );

export const pluginSlotSchema = z.object({
  slot_name: z
    .string()
    .trim()
    .refine((name) => canonicalSlot(name) !== undefined, 'There is no such slot.'),
  plugin_file_path: pluginFilePath.nullish(),
});

/** Files an administrator may upload with a plugin: what a sandboxed page loads. */
export const PLUGIN_FILE_TYPES = ['text/html', 'text/javascript', 'text/css', 'application/json', 'image/svg+xml'];
export const PLUGIN_FILE_MAX_BYTES = 1024 * 1024;

/**
 * What a plugin may do over the bridge, granted per record by an administrator (issue 22). A call
 * for a capability the record lacks is refused with a message and does nothing.
 */
export const PLUGIN_CAPABILITIES = [
  'read-context',
  'update-risk',
  'create-and-update-risk',
  'toast',
  'navigate',
  'api-read',
  'api-write',
] as const;
export type PluginCapability = (typeof PLUGIN_CAPABILITIES)[number];
export const CAPABILITY_LABELS: Record<PluginCapability, string> = {
  'read-context': 'Read the slot’s context',
  'update-risk': 'Update the risk',
  'create-and-update-risk': 'Create risks',
  toast: 'Show toasts',
  navigate: 'Navigate',
  'api-read': 'API requests: read',
  'api-write': 'API requests: change',
};
/** What a record holds unless an administrator says otherwise: what the previous portal's plugins could do. */
export const DEFAULT_CAPABILITIES: PluginCapability[] = [
  'read-context',
  'update-risk',
  'create-and-update-risk',
  'toast',
];
export const capabilitiesSchema = z
  .array(z.enum(PLUGIN_CAPABILITIES, { error: 'There is no such capability.' }))
  .max(PLUGIN_CAPABILITIES.length)
  .transform((list) => PLUGIN_CAPABILITIES.filter((c) => list.includes(c)));

/**
 * The API areas a plugin's requests may reach (relative to `/api`), always as the signed-in user:
 * the business records. Identity, access, settings, secrets, integrations and the plugin records
 * themselves are out of reach even with the capability, so no request can mint or read a credential.
 */
export const PLUGIN_API_PREFIXES = ['/quote/', '/lines/', '/policies/', '/claims/', '/contacts/'];

/**
 * The palette (docs/third-party-plugins.md "In the palette"): commands a plugin offers are part of
 * its record, written by the administrator who registers it, so the host lists them without loading
 * any plugin code and a running plugin cannot rename them. A command either navigates by a route's
 * spec name or sends the plugin an event over the bridge. `shortcut` is a hint shown beside the
 * title, never bound: third-party keys must not take the host's.
 */
const routeName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]*(:[a-z0-9-]+)*$/, 'A route is named like quote:page.');
export const paletteRouteSchema = z.object({
  name: routeName,
  params: z
    .record(z.string().max(50), z.union([z.string().max(200), z.number()]), {
      error: 'Route params are a JSON object of strings and numbers.',
    })
    .optional(),
  query: z
    .record(z.string().max(50), z.union([z.string().max(500), z.number(), z.boolean()]), {
      error: 'A route query is a JSON object of strings, numbers and booleans.',
    })
    .optional(),
});
export const paletteCommandSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'A command id is up to 64 letters, digits, dots, dashes and underscores.'),
  title: z.string().trim().min(1, 'This field is required.').max(80, 'A command title is at most 80 characters.'),
  shortcut: z.string().trim().min(1).max(20, 'A shortcut hint is at most 20 characters.').optional(),
  keywords: z.array(z.string().trim().min(1).max(40)).max(10).optional(),
  /** Where the command goes; without it, running the command sends the plugin `command {id}`. */
  route: paletteRouteSchema.optional(),
});
export type PaletteCommand = z.infer<typeof paletteCommandSchema>;
export const PALETTE_COMMANDS_MAX = 10;
export const paletteCommandsSchema = z
  .array(paletteCommandSchema)
  .max(PALETTE_COMMANDS_MAX, `A plugin offers at most ${PALETTE_COMMANDS_MAX} palette commands.`)
  .refine((list) => new Set(list.map((c) => c.id)).size === list.length, 'Each palette command needs its own id.');
