import { ApiError, z, type Principal } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { RESERVE_CATEGORIES } from '../ledger-entry.js';
import { parseMoney } from '../money.js';
import type { Actor } from '../posting-service.js';

/** The OpenAPI tags and security of every ledger route. */
export const tags = ['claims', 'claims-ledger'];
export { security } from '../../core/http-kit.js';

/** Zod pieces the ledger's routes share. Messages follow the spec's form-validation wording. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** An amount as a decimal string with at most 2 places (never a JSON number: floats are refused). */
export function moneyText(label: string, options: { min?: string; signed?: boolean } = {}) {
  return z.string({ error: `${label} must be a decimal string such as "1234.50".` }).superRefine((value, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!DECIMAL.test(value)) return fail(`${label} must be a decimal string such as "1234.50".`);
    if (/\.\d{3,}$/.test(value)) return fail(`${label} can not have more than 2 decimal places.`);
    if (value.replace(/^-/, '').split('.')[0]!.length > 12) return fail(`${label} must be 999999999999.99 or less.`);
    if (!options.signed && value.startsWith('-')) return fail(`${label} must be ${options.min ?? '0.00'} or more.`);
    if (options.min !== undefined && parseMoney(value) < parseMoney(options.min)) {
      return fail(`${label} must be ${options.min} or more.`);
    }
  });
}

export const dateText = (label: string) =>
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date in the format YYYY-MM-DD.`);

export const reserveCategory = z.enum(RESERVE_CATEGORIES, {
  error: `Reserve category must be one of ${RESERVE_CATEGORIES.join(', ')}.`,
});

export const PAYMENT_METHODS = ['check', 'ach', 'wire', 'card'] as const;
export const RECOVERY_TYPES = ['salvage', 'subrogation'] as const;

export const idParams = z.strictObject({
  id: z.string().regex(/^[1-9]\d{0,9}$/, 'The id must be a positive whole number.'),
});

export const ledgerListQuery = {
  'filter[claim]': z.coerce.number().int().positive().optional(),
  'filter[exposure]': z.coerce.number().int().positive().optional(),
  'filter[transaction_status]': z.enum(['pending_approval', 'posted', 'rejected']).optional(),
};

export function actorOf(request: FastifyRequest): Actor {
  const principal = request.principal as Principal;
  return { username: principal.username, effectiveRole: principal.effectiveRole, principal };
}

/** The exposure a posting is for, from `relationships.exposure` (required). */
export function exposureIdOf(relationships: { exposure?: { data: { id: string } | null } } | undefined): number {
  const id = relationships?.exposure?.data?.id;
  if (id === undefined) {
    throw new ApiError(400, 'This field is required.', {
      source: { pointer: '/data/relationships/exposure' },
      code: 'required',
    });
  }
  if (!/^[1-9]\d{0,9}$/.test(id)) {
    throw new ApiError(404, `Exposure ${id} not found.`, {
      source: { pointer: '/data/relationships/exposure/data/id' },
    });
  }
  return Number(id);
}

export const transactionNotFound = (kind: string, id: string | number) => new ApiError(404, `${kind} ${id} not found.`);
