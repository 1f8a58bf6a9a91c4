import { and, eq } from 'drizzle-orm';
import {
  CARRIER_SETTINGS,
  DEFAULT_PRODUCT_SLUG,
  notFound,
  provideService,
  type CarrierSettings,
  type CarrierSettingsService,
  type Queryable,
} from '@atrium/sdk/server';
import { carrier, setting } from './tables.js';

const SLUG = { section: 'site', option: 'product-slug' } as const;

async function read(tx: Queryable): Promise<CarrierSettings> {
  const [row] = await tx.select().from(carrier).where(eq(carrier.isPrimary, true)).limit(1);
  if (!row) throw notFound('No primary carrier is configured.');
  const [slug] = await tx
    .select({ value: setting.value })
    .from(setting)
    .where(and(eq(setting.section, SLUG.section), eq(setting.option, SLUG.option)))
    .limit(1);
  return {
    name: row.name,
    website: row.website,
    logo_url: row.logoUrl,
    claim_prefix: row.claimPrefix,
    policy_prefix: row.policyPrefix,
    live_status: row.liveStatus,
    live_status_description: row.liveStatusDescription,
    product_slug: slug ? (JSON.parse(slug.value) as string) : DEFAULT_PRODUCT_SLUG,
  };
}

/** The carrier settings service (SDK carrier-settings.ts): the core's tables, read and written here only. */
export const carrierSettingsService = provideService(CARRIER_SETTINGS, (): CarrierSettingsService => ({
  read,
  async update(tx, changes) {
    const columns: Partial<typeof carrier.$inferInsert> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.website !== undefined) columns.website = changes.website;
    if (changes.logo_url !== undefined) columns.logoUrl = changes.logo_url;
    if (changes.claim_prefix !== undefined) columns.claimPrefix = changes.claim_prefix;
    if (changes.policy_prefix !== undefined) columns.policyPrefix = changes.policy_prefix;
    if (changes.live_status !== undefined) columns.liveStatus = changes.live_status;
    if (changes.live_status_description !== undefined) {
      columns.liveStatusDescription = changes.live_status_description;
    }
    if (Object.keys(columns).length > 0) await tx.update(carrier).set(columns).where(eq(carrier.isPrimary, true));
    if (changes.product_slug !== undefined) {
      const value = JSON.stringify(changes.product_slug);
      await tx
        .insert(setting)
        .values({ ...SLUG, value, description: 'Product slug of classic links.', updatedAt: new Date() })
        .onConflictDoUpdate({ target: [setting.section, setting.option], set: { value, updatedAt: new Date() } });
    }
    return read(tx);
  },
}));
