import { CARRIER_SETTINGS, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { carrierSettingsSchema } from '../shared/settings-schemas.js';
import { settingsPermissions } from './permissions.js';

const tags = ['settings'];
const security = [{ bearer: [] as string[] }];

const settingsResponse = z.object({
  name: z.string(),
  website: z.string().nullable(),
  logo_url: z.string().nullable(),
  claim_prefix: z.string(),
  policy_prefix: z.string(),
  live_status: z.boolean(),
  live_status_description: z.string(),
  product_slug: z.string(),
});

/** The administrators' carrier settings, read and written through the core's service. */
export function settingsRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const service = () => context.service(CARRIER_SETTINGS);

  router.get(
    '/settings/carrier/',
    {
      config: { access: settingsPermissions.can('carrier', 'read') },
      schema: {
        summary: 'The carrier settings: name, website, logo, number prefixes, live status, product slug.',
        tags,
        security,
        response: { 200: settingsResponse },
      },
    },
    () => service().read(context.db),
  );

  router.put(
    '/settings/carrier/',
    {
      config: { access: settingsPermissions.can('carrier', 'update') },
      schema: {
        summary: 'Replaces the carrier settings (every field; empty website or logo clears it).',
        tags,
        security,
        body: carrierSettingsSchema,
        response: { 200: settingsResponse },
      },
    },
    async (request) => {
      const saved = await context.db.transaction((tx) => service().update(tx, request.body));
      request.log.info({ by: request.principal.username }, 'carrier settings changed');
      return saved;
    },
  );
}
