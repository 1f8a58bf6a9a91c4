import type { ProductDefinition } from '@atrium/rating';
import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * Lines' before-publish extension point. Lines owns the ref and calls it when a draft is about to be
 * published; another module (rules) provides it and answers what of its own would break. Lines
 * imports nothing from that module, and without a provider publishing is unchanged.
 */
export interface PublishImpactItem {
  /** Who depends on the definition, in words, e.g. "Rules project Motor demo". */
  source: string;
  /** What would break, e.g. the rule's full name. */
  subject: string;
  message: string;
}

export interface VersionAboutToPublish {
  productName: string;
  versionLabel: string;
  /** YYYY-MM-DD */
  effectiveDate: string;
  definition: ProductDefinition;
}

export type LinesPublishImpact = {
  /** Everything that would stop working if `version` were published; empty when nothing would. */
  check(tx: Queryable, version: VersionAboutToPublish): Promise<PublishImpactItem[]>;
};

export const LINES_PUBLISH_IMPACT = createServiceRef<LinesPublishImpact>('lines.publish-impact');
