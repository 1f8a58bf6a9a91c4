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
