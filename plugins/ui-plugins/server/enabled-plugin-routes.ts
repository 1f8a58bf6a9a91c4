import { asc, eq } from 'drizzle-orm';
import { z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { canonicalSlot, PLUGIN_SLOTS, SLOT_LABELS } from '../shared/plugin-schemas.js';
import { INLINE_CONTENT_PATH } from './plugin-file-routes.js';
import { can } from './permissions.js';
import { plugin } from './tables.js';

/**
 * `GET /api/integrations/plugins/enabled?slot=…`: what the slot runtime loads: each enabled plugin
 * filling the slot (aliases of the previous portal resolved), the file its iframe opens and its
 * configuration. Every role holds `ui-plugins:enabled-plugin read`; the records' other attributes
 * (who registered them, inline content) stay behind `ui-plugins:plugin read`.
 */
const query = z.object({
  slot: z.enum(PLUGIN_SLOTS, { error: 'There is no such slot.' }).optional(),
});

export function enabledPluginRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  router.get(
    '/plugins/enabled',
    {
      config: { access: can('enabled-plugin', 'read') },
      schema: {
        summary: 'The enabled UI plugins for one slot (or all slots), as the slot runtime loads them.',
        tags: ['ui-plugins'],
        security: [{ bearer: [] }],
        querystring: query,
      },
    },
    async (request) => {
      const rows = await db.select().from(plugin).where(eq(plugin.enabled, true)).orderBy(asc(plugin.name));
      const data = rows.flatMap((row) =>
        row.slots.flatMap((slot) => {
          const name = canonicalSlot(slot.slot_name);
          if (!name || (request.query.slot && name !== request.query.slot)) return [];
          const file = row.content !== null ? INLINE_CONTENT_PATH : slot.plugin_file_path;
          if (!file) return [];
          return [
            {
              id: row.id,
              name: row.name,
              slot_name: name,
              slot_label: SLOT_LABELS[name],
              registered_slot_name: slot.slot_name,
              src: `/api/integrations/plugins/${row.id}/files/${file}`,
              configuration: row.configuration,
              capabilities: row.capabilities,
            },
          ];
        }),
      );
      return { data };
    },
  );

  router.get(
    '/plugins/enabled/palette',
    {
      config: { access: can('enabled-plugin', 'read') },
      schema: {
        summary: 'What the enabled UI plugins offer in the command palette: their commands, and whether they search.',
        tags: ['ui-plugins'],
        security: [{ bearer: [] }],
      },
    },
    async () => {
      const rows = await db.select().from(plugin).where(eq(plugin.enabled, true)).orderBy(asc(plugin.name));
      // The palette loads a searching plugin (or one with an event command) in a hidden frame of its
      // own: the file of its first slot, or its inline content.
      const data = rows.flatMap((row) => {
        if (row.paletteCommands.length === 0 && !row.paletteSearch) return [];
        const file =
          row.content !== null ? INLINE_CONTENT_PATH : row.slots.find((s) => s.plugin_file_path)?.plugin_file_path;
        if (!file) return [];
        return [
          {
            id: row.id,
            name: row.name,
            src: `/api/integrations/plugins/${row.id}/files/${file}`,
            configuration: row.configuration,
            capabilities: row.capabilities,
            commands: row.paletteCommands,
            search: row.paletteSearch,
          },
        ];
      });
      return { data };
    },
  );
}
