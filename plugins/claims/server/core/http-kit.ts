import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  defineAuditLog,
  type AuditRecord,
  type Permission,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { auditLog } from './tables.js';

/** Shared pieces of every claims route: base path, caller, audit entries, database error mapping. */
export const CLAIMS_BASE = '/api/claims';
export const JSONAPI_PAGE_SIZE = 250;
export const tags = ['claims'];
export const security = [{ bearer: [] }];

/** The caller's user name (routes are never public, so a principal is always there). */
export function callerOf(request: FastifyRequest): string {
  return request.principal?.username ?? 'system';
}

/** A claims audit row: the SDK's entry plus the claim it belongs to and a status move's from/to and reason. */
export interface AuditEntry extends AuditRecord {
  /** `read-ssn`: an SSN answered in full (docs/security.md, "SSNs"); the only read that is audited. */
  action: 'create' | 'update' | 'delete' | 'status' | 'assign' | 'unassign' | 'move' | 'tags' | 'read-ssn';
  claimId?: number | null;
  fromStatus?: string | null;
  toStatus?: string | null;
  reason?: string | null;
}

/**
 * Every write lands in the audit log in the same transaction as the write itself, through the SDK's
 * audit mechanism (declared resources use `claimsAudit.forResource`); file bytes are left out.
 */
export const claimsAudit = defineAuditLog<AuditEntry>(auditLog, { omit: ['content'] });

export const writeAudit = claimsAudit.write;

/** The `id` of a PATCH document must be the record's (JSON:API 1.1 answers 409 otherwise). */
export function requireMatchingId(bodyId: string | undefined, id: string | number): void {
  if (bodyId !== String(id)) {
    throw new ApiError(409, `The id in the document ('${bodyId}') is not the id in the URL.`, {
      source: { pointer: '/data/id' },
    });
  }
}

/** A path or body id that must be a positive integer; anything else is simply not found. */
export function numericId(value: string, notFoundDetail: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id > 2147483647) throw new ApiError(404, notFoundDetail);
  return id;
}

/** An id in a relationship document; a bad one points at the relationship. */
export function relationshipId(value: string | undefined | null, relationship: string): number | null {
  if (value == null) return null;
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2147483647) {
    throw new ApiError(400, `'${value}' is not a valid id.`, {
      source: { pointer: `/data/relationships/${relationship}/data/id` },
    });
  }
  return Number(value);
}

/**
 * Record-level check: the route's own permission was already evaluated without a record; routes
 * that read one claim ask again with the record, and a claim the caller may not see is a 404.
 */
export async function mayAccessRecord(
  context: ServerPluginContext,
  request: FastifyRequest,
  permission: Permission,
  record: Record<string, unknown>,
): Promise<boolean> {
  const evaluator = context.services.evaluator;
  if (!evaluator || !request.principal) return false;
  const evaluation = await evaluator.evaluate(request.principal, { ...permission, record });
  return evaluation.allowed;
}
