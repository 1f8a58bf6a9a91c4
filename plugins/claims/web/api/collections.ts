import { resourceClient, type ResourceClient } from '@atrium/sdk';
import { defineResourceShape, type ResourceShape } from '@atrium/sdk/shared';
import * as sharedCollections from '../../shared/collections.js';
import { LOOKUP_PATHS, lookupShape, payCodeShape, paymentMethodShape } from '../../shared/collections.js';

/**
 * Typed clients of the claims collections declared once in shared/collections.ts (list, every
 * page, find with ETag, create, change with If-Match, delete; TanStack Query keys and options).
 */
export const paymentMethods = resourceClient(paymentMethodShape);
export const payCodes = resourceClient(payCodeShape);
export type PaymentLookupClient = typeof paymentMethods | typeof payCodes;

const declaredShapes = (Object.values(sharedCollections) as unknown[]).filter(
  (value): value is ResourceShape => typeof value === 'object' && value !== null && 'path' in value && 'style' in value,
);

/**
 * The typed client of a claims collection read by path: its declared shape (shared/collections.ts),
 * else a read-only shape for the collections whose routes are written by hand (exposures, payees,
 * payors: they are read here whole, never written through these hooks).
 */
const HAND_WRITTEN: Record<string, string> = {
  '/claims/exposures/': 'exposure',
  '/claims/payees/': 'payees',
  '/claims/payors/': 'payors',
};
const clients = new Map<string, ResourceClient<ResourceShape>>();
export function collectionClient(path: string): ResourceClient<ResourceShape> {
  let client = clients.get(path);
  if (!client) {
    const lookup = path.match(/^\/claims\/([a-z-]+)\/$/)?.[1];
    const shape: ResourceShape =
      declaredShapes.find((declared) => declared.path === path) ??
      (lookup && LOOKUP_PATHS[lookup] ? lookupShape(lookup) : undefined) ??
      defineResourceShape({
        type: HAND_WRITTEN[path] ?? path,
        path,
        style: 'jsonapi',
        attributes: {},
        pageSize: 250,
        readOnlyResource: true,
      });
    client = resourceClient(shape);
    clients.set(path, client);
  }
  return client;
}
