import { eq, and } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError, badRequest, notFound, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { ATRIUM_VERSION } from '../version.js';
import { carrier, setting } from './tables.js';

/**
 * The classic utility calls the spec names under /api/v2. They answer in the classic envelope
 * `{ success, data }` the previous portal's clients expect.
 */
const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

const carrierSummary = z.object({ name: z.string(), website: z.string().nullable(), logo_url: z.string().nullable() });
const carrierMetadata = z.object({
  live_status: z.boolean(),
  live_status_description: z.string(),
  claim_prefix: z.string(),
  policy_prefix: z.string(),
  enable_analytics: z.boolean(),
  track_agents_in_pendo: z.boolean(),
  whitelisted_for_pendo: z.boolean(),
});

/**
 * The settings set_setting_value may write, by `section/option`, with the value each accepts. Any
 * other stored setting is read-only through the API.
 */
const WRITABLE_SETTINGS: Record<string, z.ZodType> = {
  /** Minutes of inactivity before sign-out; 0: no timeout. */
  'login/session-timeout': z.number().int().min(0).max(1440),
};

const PROCESS_STARTED_AT = new Date().toISOString();

export async function coreRoutes(router: AtriumRouter, { db }: ServerPluginContext) {
  const primaryCarrier = async () => {
    const [row] = await db.select().from(carrier).where(eq(carrier.isPrimary, true)).limit(1);
    if (!row) throw notFound('No primary carrier is configured.');
    return row;
  };

  router.get(
    '/v2/insured/get_primary_carrier',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The carrier running this portal (shown on the sign-in page and the top bar).',
        tags: ['core'],
        response: { 200: envelope(carrierSummary) },
      },
    },
    async () => {
      const row = await primaryCarrier();
      return { success: true as const, data: { name: row.name, website: row.website, logo_url: row.logoUrl } };
    },
  );

  router.get(
    '/v2/utils/meta',
    {
      // Shell metadata (live-site banner, prefixes): the shell asks it on every page for every role.
      config: { access: 'authenticated' },
      schema: {
        summary: "The carrier's metadata, for every signed-in user.",
        tags: ['core'],
        response: { 200: envelope(carrierMetadata) },
      },
    },
    async () => {
      const row = await primaryCarrier();
      return {
        success: true as const,
        data: {
          live_status: row.liveStatus,
          live_status_description: row.liveStatusDescription,
          claim_prefix: row.claimPrefix,
          policy_prefix: row.policyPrefix,
          enable_analytics: row.enableAnalytics,
          track_agents_in_pendo: row.trackAgentsInPendo,
          whitelisted_for_pendo: row.whitelistedForPendo,
        },
      };
    },
  );

  router.get(
    '/v2/utils/get_release_info',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Version info of the running release.',
        tags: ['core'],
        response: { 200: envelope(z.object({ tag: z.string(), timestamp: z.string() })) },
      },
    },
    async () => ({ success: true as const, data: { tag: ATRIUM_VERSION, timestamp: PROCESS_STARTED_AT } }),
  );

  router.post(
    '/v2/settings/get_setting_value',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'One setting by section and option (e.g. login / session-timeout).',
        tags: ['core'],
        body: z.strictObject({ section: z.string().min(1).max(100), option: z.string().min(1).max(100) }),
        response: { 200: envelope(z.unknown()) },
      },
    },
    async (request) => {
      const { section, option } = request.body;
      const [row] = await db
        .select()
        .from(setting)
        .where(and(eq(setting.section, section), eq(setting.option, option)))
        .limit(1);
      if (!row) throw notFound(`Setting ${section}/${option} not found.`);
      return { success: true as const, data: JSON.parse(row.value) as unknown };
    },
  );

  router.post(
    '/v2/settings/set_setting_value',
    {
      config: { access: { resource: 'core:setting', action: 'update' } },
      schema: {
        summary:
          'Writes one setting by section and option; only login / session-timeout (minutes, 0–1440) is writable.',
        tags: ['core'],
        body: z.strictObject({
          section: z.string().min(1).max(100),
          option: z.string().min(1).max(100),
          value: z.unknown(),
        }),
        response: { 200: envelope(z.unknown()) },
      },
    },
    async (request) => {
      const { section, option, value } = request.body;
      const schema = WRITABLE_SETTINGS[`${section}/${option}`];
      if (!schema) {
        const [row] = await db
          .select({ section: setting.section })
          .from(setting)
          .where(and(eq(setting.section, section), eq(setting.option, option)))
          .limit(1);
        if (!row) throw notFound(`Setting ${section}/${option} not found.`);
        throw badRequest(`Setting ${section}/${option} cannot be changed.`, { source: { pointer: '/option' } });
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ApiError(400, issue?.message ?? 'Invalid value.', {
          source: { pointer: '/value' },
          code: issue?.code,
        });
      }
      const stored = JSON.stringify(parsed.data);
      const now = new Date();
      await db
        .insert(setting)
        .values({ section, option, value: stored, updatedAt: now })
        .onConflictDoUpdate({ target: [setting.section, setting.option], set: { value: stored, updatedAt: now } });
      return { success: true as const, data: parsed.data as unknown };
    },
  );
}
