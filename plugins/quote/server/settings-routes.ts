import { z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { ABANDON_SETTING, abandonAfterDays } from './abandon.js';
import { can } from './permissions.js';
import { setting } from './tables.js';

const tags = ['quote'];
const security = [{ bearer: [] as string[] }];

/** The Quote module's settings: `abandon_after_days` (the `quote/abandon-after-days` setting). */
export function settingsRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const answer = async () => ({ abandon_after_days: await abandonAfterDays(db) });

  router.get(
    '/quote/settings/',
    {
      config: { access: can('settings', 'administer') },
      schema: { summary: 'The Quote module’s settings.', tags, security },
    },
    answer,
  );

  router.put(
    '/quote/settings/',
    {
      config: { access: can('settings', 'administer') },
      schema: {
        summary:
          'Changes the Quote module’s settings: abandon_after_days (1–3650), the days without activity after which the nightly job abandons an open quote.',
        tags,
        security,
        body: z.strictObject({
          abandon_after_days: z
            .number({ error: 'Enter a whole number of days.' })
            .int('Enter a whole number of days.')
            .min(1, 'Enter at least 1 day.')
            .max(3650, 'Enter at most 3650 days.'),
        }),
      },
    },
    async (request) => {
      const value = request.body.abandon_after_days;
      const by = request.principal?.username ?? 'system';
      await db
        .insert(setting)
        .values({ key: ABANDON_SETTING, value, updatedBy: by })
        .onConflictDoUpdate({ target: setting.key, set: { value, updatedBy: by, updatedAt: new Date() } });
      return answer();
    },
  );
}
