import { and, desc, eq, inArray, lte } from 'drizzle-orm';
import { ProductDefinitionError, rate, RatingError } from '@atrium/rating';
import { ApiError, provideService } from '@atrium/sdk/server';
import { LINES_RATING } from '../../shared/rating-service.js';
import { product, productVersion } from '../tables.js';
import { compiledVersion } from './rating-service.js';

/**
 * Implements LINES_RATING (shared/rating-service.ts): the published version in force on the rating
 * date (as `POST /rating/rate-quote/` chooses it), compiled once and cached (rating-service.ts),
 * rated by the engine. Engine and definition errors come back as `{ ok: false }` with their message.
 */
export const linesRatingService = provideService(LINES_RATING, (context) => ({
  async rate(tx, request) {
    const [p] = await tx.select({ id: product.id }).from(product).where(eq(product.name, request.product));
    if (!p) return { ok: false, code: 'no_product', message: `Product '${request.product}' not found.` };
    const [version] = await tx
      .select({ id: productVersion.id, label: productVersion.label })
      .from(productVersion)
      .where(
        request.versionId !== undefined
          ? and(
              eq(productVersion.productId, p.id),
              eq(productVersion.id, request.versionId),
              inArray(productVersion.status, ['published', 'retired']),
            )
          : and(
              eq(productVersion.productId, p.id),
              eq(productVersion.status, 'published'),
              lte(productVersion.effectiveDate, request.ratingDate),
            ),
      )
      .orderBy(desc(productVersion.effectiveDate), desc(productVersion.number))
      .limit(1);
    if (!version) {
      return {
        ok: false,
        code: 'no_version',
        message:
          request.versionId !== undefined
            ? `Version ${request.versionId} of product '${request.product}' is not published.`
            : `Product '${request.product}' has no published version in effect on ${request.ratingDate}.`,
      };
    }
    try {
      // Read in the caller's transaction, cached per database (context.db) across transactions.
      const compiled = await compiledVersion(tx, p.id, version.id, context?.db ?? tx);
      const result = rate(compiled, {
        risk: request.risk,
        transactionType: request.transactionType,
        termStart: request.termStart,
        termEnd: request.termEnd,
        effectiveDate: request.termStart,
      });
      return {
        ok: true,
        productId: p.id,
        versionId: version.id,
        versionLabel: version.label,
        termPremium: result.termPremium,
        worksheet: result.worksheet,
      };
    } catch (error) {
      if (error instanceof RatingError || error instanceof ProductDefinitionError) {
        return { ok: false, code: error.code, message: error.message };
      }
      // compiledVersion answers a version that does not compile as a 400.
      if (error instanceof ApiError && error.status < 500) {
        return { ok: false, code: error.code ?? 'not_rated', message: error.message };
      }
      throw error;
    }
  },
}));
