import { resourceClient } from '@atrium/sdk';
import { payCodeShape, paymentMethodShape } from '../../shared/collections.js';

/**
 * Typed clients of the claims collections declared once in shared/collections.ts (list, every
 * page, find with ETag, create, change with If-Match, delete; TanStack Query keys and options).
 */
export const paymentMethods = resourceClient(paymentMethodShape);
export const payCodes = resourceClient(payCodeShape);
export type PaymentLookupClient = typeof paymentMethods | typeof payCodes;
