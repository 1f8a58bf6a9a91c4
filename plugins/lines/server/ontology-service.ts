import { and, asc, desc, eq, lte } from 'drizzle-orm';
import { provideService } from '@atrium/sdk/server';
import { LINES_ONTOLOGY } from '../shared/ontology-service.js';
import { loadProductDefinition } from './product-definition.js';
import { product, productVersion } from './tables.js';

/** Implements LINES_ONTOLOGY (shared/ontology-service.ts) for other modules — rules first. */
export const linesOntologyService = provideService(LINES_ONTOLOGY, () => ({
  async products(tx) {
    return tx
      .select({ id: product.id, name: product.name, label: product.label })
      .from(product)
      .orderBy(asc(product.name));
  },
  async versionInForce(tx, productName, asOf) {
    const [p] = await tx
      .select({ id: product.id, name: product.name })
      .from(product)
      .where(eq(product.name, productName));
    if (!p) return null;
    const published = and(eq(productVersion.productId, p.id), eq(productVersion.status, 'published'));
    const columns = { id: productVersion.id, label: productVersion.label, effectiveDate: productVersion.effectiveDate };
    const [started] = await tx
      .select(columns)
      .from(productVersion)
      .where(and(published, lte(productVersion.effectiveDate, asOf)))
      .orderBy(desc(productVersion.effectiveDate), desc(productVersion.number))
      .limit(1);
    const version =
      started ??
      (
        await tx
          .select(columns)
          .from(productVersion)
          .where(published)
          .orderBy(asc(productVersion.effectiveDate))
          .limit(1)
      )[0];
    if (!version) return null;
    return {
      productId: p.id,
      productName: p.name,
      versionId: version.id,
      versionLabel: version.label,
      effectiveDate: version.effectiveDate,
      definition: await loadProductDefinition(tx, p.id, version.id),
    };
  },
}));
