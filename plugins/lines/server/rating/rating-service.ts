import { and, eq } from 'drizzle-orm';
import {
  compileProduct,
  ProductDefinitionError,
  rate,
  RatingError,
  type CompiledProduct,
  type RatingRequest,
  type RatingResult,
  type TermResult,
} from '@atrium/rating';
import { ApiError, badRequest, notFound, type Queryable } from '@atrium/sdk/server';
import { resolveDefinition } from '../catalog/resolve.js';
import { toProductDefinition } from '../product-definition.js';
import { productVersion } from '../tables.js';

/**
 * Loads and compiles product versions for rating, and turns the engine's errors into 400s.
 *
 * A compiled version is kept when neither it nor any version it inherits from is a draft: those
 * never change again (only a draft is edited or deleted; deleting a product removes its scenarios,
 * and rate-quote looks the product up first), so rating a published version costs no query for its
 * definition. A draft is loaded and compiled on every rating, so an edit shows in the next rating.
 */
interface CachedVersion {
  productId: number;
  compiled: CompiledProduct;
}
const caches = new WeakMap<object, Map<number, CachedVersion>>();
const CACHE_LIMIT = 200;

/** One cache per database (version ids of two databases in one process must not meet). */
function cacheOf(db: object): Map<number, CachedVersion> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

/**
 * Compiles a product version (404 when the version is not the product's; 400 when it does not
 * compile). `cacheKey`: the database the cache belongs to when `db` is a transaction of it (a
 * caller's transaction is new each time; the cache must outlive it).
 */
export async function compiledVersion(
  db: Queryable,
  productId: number,
  versionId: number,
  cacheKey: object = db,
): Promise<CompiledProduct> {
  const cache = cacheOf(cacheKey);
  const cached = cache.get(versionId);
  if (cached && cached.productId === productId) return cached.compiled;
  const [version] = await db
    .select({ status: productVersion.status })
    .from(productVersion)
    .where(and(eq(productVersion.id, versionId), eq(productVersion.productId, productId)))
    .limit(1);
  if (!version) throw notFound(`Version ${versionId} of product ${productId} not found.`);
  const definition = await resolveDefinition(db, versionId);
  let compiled: CompiledProduct;
  try {
    compiled = compileProduct(toProductDefinition(definition));
  } catch (error) {
    throw ratingApiError(error);
  }
  if (definition.chain.every((v) => v.status !== 'draft')) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(versionId, { productId, compiled });
  }
  return compiled;
}

/**
 * An engine error as the API answers it: 400 with the engine's message and code (missing answers,
 * no rate row, formula errors, a product that does not compile with every problem listed). Anything
 * else is passed on unchanged.
 */
export function ratingApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof ProductDefinitionError) {
    return badRequest(error.message, { code: error.code, meta: { problems: error.problems } });
  }
  if (error instanceof RatingError) {
    const details: Record<string, unknown> = {};
    for (const key of ['riskPath', 'calculation', 'position', 'table', 'keys'] as const) {
      const value = (error as unknown as Record<string, unknown>)[key];
      if (value !== undefined) details[key] = value;
    }
    return badRequest(error.message, { code: error.code, meta: { rating_error: { code: error.code, ...details } } });
  }
  return error;
}

/** Rates, answering engine errors with 400. */
export function rateOrRefuse(product: CompiledProduct, request: RatingRequest): RatingResult {
  try {
    return rate(product, request);
  } catch (error) {
    throw ratingApiError(error);
  }
}

/** The spec's quote premium (term, pro_rata) with the fully earned and return parts. */
export function premiumOut(term: TermResult) {
  return {
    term: term.termPremium,
    pro_rata: term.proRataPremium,
    fully_earned: term.fullyEarnedPremium,
    ...(term.returnPremium !== undefined ? { return: term.returnPremium } : {}),
  };
}

/** What a rating answers (and what a scenario stores as its last rating). */
export function ratingOut(result: RatingResult, ratedAt: Date) {
  return {
    product: result.product,
    version: result.version ?? null,
    premium: premiumOut(result.term),
    term: result.term,
    worksheet: result.worksheet,
    rated_at: ratedAt.toISOString(),
  };
}

/** Adds whole months to a YYYY-MM-DD date (the day is clamped to the month's last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The product's base term in months (settings.baseTerm), 12 when it does not say. */
export function baseTermMonths(settings: { baseTerm?: number } | null | undefined): number {
  const months = settings?.baseTerm;
  return typeof months === 'number' && Number.isInteger(months) && months > 0 && months <= 120 ? months : 12;
}
