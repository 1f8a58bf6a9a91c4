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
