import { eq } from 'drizzle-orm';
import { conflict, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_PUBLISH_IMPACT } from '../../shared/publish-impact.js';
import { loadProductDefinition } from '../product-definition.js';
import { product, productVersion } from '../tables.js';
import { registerBeforePublish, type BeforePublishContext } from './publish-hooks.js';

/**
 * Asks whoever provides LINES_PUBLISH_IMPACT (rules) what publishing would break. A non-empty answer
 * refuses the publish (409, code `publish_impact`, the list in `meta.impact`) until the caller sends
 * `acknowledgeImpact: true` — the author has seen the list and publishes anyway.
 */
export function registerPublishImpactHook(context: ServerPluginContext): () => void {
  return registerBeforePublish(async ({ tx, productId, versionId, acknowledgeImpact }: BeforePublishContext) => {
    const impact = context.optionalService(LINES_PUBLISH_IMPACT);
    if (!impact || acknowledgeImpact) return;
    const [row] = await tx
      .select({ name: product.name, label: productVersion.label, effectiveDate: productVersion.effectiveDate })
      .from(productVersion)
      .innerJoin(product, eq(product.id, productVersion.productId))
      .where(eq(productVersion.id, versionId));
    if (!row) return;
    const definition = await loadProductDefinition(tx, productId, versionId);
    const items = await impact.check(tx, {
      productName: row.name,
      versionLabel: row.label,
      effectiveDate: row.effectiveDate,
      definition,
    });
    if (items.length === 0) return;
    throw conflict(
      `Publishing ${row.label} would break ${items.length} committed rule${items.length === 1 ? '' : 's'}; review the list and publish again acknowledging the impact.`,
      { code: 'publish_impact', meta: { impact: items } },
    );
  });
}
