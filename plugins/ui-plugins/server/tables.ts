import type { PaletteCommand } from '../shared/plugin-schemas.js';
import { boolean, integer, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Third-party UI plugin records (docs/third-party-plugins.md). The file bytes live in platform object
 * storage; these tables hold only what the host needs to find and serve them.
 */
export const uiPluginsSchema = pgSchema('ui_plugins');

/** One slot a plugin fills, and the file (relative to the plugin) that the slot loads. */
export type PluginSlotRow = { slot_name: string; plugin_file_path: string | null };

export const plugin = uiPluginsSchema.table('plugin', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  slots: jsonb('slots').$type<PluginSlotRow[]>().notNull(),
  baseUrl: text('base_url'),
  /** Inline HTML; when set, base_url and every slot's plugin_file_path are null (spec: content XOR). */
  content: text('content'),
  configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull(),
  enabled: boolean('enabled').notNull().default(false),
  /** What the plugin may do over the bridge (PLUGIN_CAPABILITIES), granted by an administrator. */
  capabilities: jsonb('capabilities')
    .$type<string[]>()
    .notNull()
    .default(['read-context', 'update-risk', 'create-and-update-risk', 'toast']),
  /** The JSON Schema the plugin ships for its configuration; the editor checks against it in Monaco. */
  configurationSchema: jsonb('configuration_schema').$type<Record<string, unknown>>(),
  /** Commands the plugin offers in the palette (PaletteCommand); data the host renders. */
  paletteCommands: jsonb('palette_commands').$type<PaletteCommand[]>().notNull().default([]),
  /** Whether the palette asks the plugin for results as the user types. */
  paletteSearch: boolean('palette_search').notNull().default(false),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A file uploaded with a plugin, by its path inside the plugin (`index.html`, `js/app.js`). */
export const pluginFile = uiPluginsSchema.table(
  'plugin_file',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugin.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.pluginId, table.path] })],
);
