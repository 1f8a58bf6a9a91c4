import { eq } from 'drizzle-orm';
import { ApiError, conflict, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_PUBLISH_IMPACT } from '../../shared/publish-impact.js';
import { loadProductDefinition } from '../product-definition.js';
import { product, productVersion } from '../tables.js';
import type { BeforePublishContext } from './publish-hooks.js';

/**
 * Asks whoever provides LINES_PUBLISH_IMPACT (rules) what publishing would break. A non-empty answer
 * refuses the publish (409, code `publish_impact`, the list in `meta.impact`) until the caller sends
 * `acknowledgeImpact: true` — the author has seen the list and publishes anyway.
 */
export async function checkPublishImpact(
  context: Pick<ServerPluginContext, 'optionalService'>,
  { tx, productId, versionId, acknowledgeImpact }: BeforePublishContext,
): Promise<void> {
  const impact = context.optionalService(LINES_PUBLISH_IMPACT);
  if (!impact || acknowledgeImpact) return;
  const [row] = await tx
    .select({ name: product.name, label: productVersion.label, effectiveDate: productVersion.effectiveDate })
    .from(productVersion)
    .innerJoin(product, eq(product.id, productVersion.productId))
    .where(eq(productVersion.id, versionId));
  if (!row) return;
  // A version that cannot be rated yet (no risk types) breaks no rule: rules type-check against
  // what is rated. Whether it may be published is not this check's question.
  const definition = await loadProductDefinition(tx, productId, versionId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 400) return null;
    throw error;
  });
  if (!definition) return;
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
}
