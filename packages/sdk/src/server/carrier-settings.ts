import type { Queryable } from './define-server-plugin.js';
import { createServiceRef } from './services.js';

/**
 * The carrier's site settings (spec: Carrier name, website; metadata live_status,
 * live_status_description, claim_prefix, policy_prefix; the product slug of classic links
 * `/{product}/claims/information?claimId=…`). The platform core owns them (core.carrier and
 * core.setting) and provides this service; the settings module's administrator page writes through
 * it, and any module may read them (claim and policy number prefixes, the product slug).
 */
export interface CarrierSettings {
  name: string;
  website: string | null;
  logo_url: string | null;
  claim_prefix: string;
  policy_prefix: string;
  live_status: boolean;
  live_status_description: string;
  product_slug: string;
}

export type CarrierSettingsService = {
  read(tx: Queryable): Promise<CarrierSettings>;
  /** Changes the given settings and answers all of them. Validate at your boundary first. */
  update(tx: Queryable, changes: Partial<CarrierSettings>): Promise<CarrierSettings>;
};

export const CARRIER_SETTINGS = createServiceRef<CarrierSettingsService>('core.carrier-settings');

/** The product slug when none is stored: the build's default for classic links. */
export const DEFAULT_PRODUCT_SLUG = 'atrium';
