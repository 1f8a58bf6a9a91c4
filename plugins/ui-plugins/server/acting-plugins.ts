import { eq } from 'drizzle-orm';
import { ACTING_PLUGINS, provideService } from '@atrium/sdk/server';
import { CAPABILITY_LABELS } from '../shared/plugin-schemas.js';
import { plugin } from './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The plugin a call was made for (SDK `ACTING_PLUGINS`): a module that audits a plugin's change
 * (quote) asks whether the plugin named by the call's `X-Atrium-Plugin` header is enabled and its
 * record grants what the call does, and records the plugin's name as it is now.
 */
export const actingPluginsService = provideService(ACTING_PLUGINS, () => ({
  async check(tx, id, capabilities) {
    if (!UUID.test(id)) return { ok: false, message: 'X-Atrium-Plugin must name a plugin record by its id.' };
    const [row] = await tx
      .select({ id: plugin.id, name: plugin.name, enabled: plugin.enabled, capabilities: plugin.capabilities })
      .from(plugin)
      .where(eq(plugin.id, id))
      .limit(1);
    if (!row) return { ok: false, message: 'The plugin named by X-Atrium-Plugin does not exist.' };
    if (!row.enabled) return { ok: false, message: `${row.name} is not enabled.` };
    if (!capabilities.some((c) => row.capabilities.includes(c))) {
      const wanted = capabilities.map((c) => `“${CAPABILITY_LABELS[c]}”`).join(' or ');
      return { ok: false, message: `${row.name} may not do this: its record does not grant ${wanted}.` };
    }
    return { ok: true, id: row.id, name: row.name };
  },
}));
