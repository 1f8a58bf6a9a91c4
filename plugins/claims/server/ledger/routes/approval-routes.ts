import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  pageOfRows,
  ApiError,
  defineResource,
  pageQuerySchema,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimScope } from '../../core/claim-scope.js';
import { claimsPermission } from '../../permissions.js';
import type { TransactionType } from '../ledger-entry.js';
import { accessRecord, approveTransaction, rejectTransaction } from '../posting-service.js';
import { LEDGER_BASE, resourceOfType, transactionResource, withLedgerContext } from '../resources.js';
import { ledgerTransaction } from '../tables.js';
import { loadTransaction, policyAllows } from './posting-routes.js';
import { actorOf, idParams, ledgerListQuery, security, tags } from './schemas.js';

/**
 * GET transactions/ and transactions/{id}/ (every ledger transaction, voids included);
 * GET approvals/ (transactions pending approval); POST approvals/{id}/approve/ and …/reject/;
 * GET approvals/{id}/decision/ (may the caller approve or reject it: the screens show only what
 * the server would accept).
 */

/** Rolls back a trial approval: everything it wrote goes, the verdict stays. */
class TrialApproval extends Error {}

export interface ApprovalDecision {
  id: number;
  may_approve: boolean;
  may_reject: boolean;
  /** Why the caller may not approve (the server's own refusal), null when they may. */
  approve_refusal: string | null;
  reject_refusal: string | null;
}

const decisionResource = defineResource<ApprovalDecision>({
  type: 'approval-decisions',
  id: (d) => String(d.id),
  basePath: `${LEDGER_BASE}/approvals/`,
  attributes: (d) => ({
    may_approve: d.may_approve,
    may_reject: d.may_reject,
    approve_refusal: d.approve_refusal,
    reject_refusal: d.reject_refusal,
  }),
});

const SELF_REJECTION = 'You cannot reject your own transaction.';

const decisionBody = (reasonRequired: boolean) =>
  z.strictObject({
    data: z.strictObject({
      type: z.string(),
      id: z.string().optional(),
      attributes: z
        .strictObject({
          reason: reasonRequired
            ? z.string().trim().min(1, 'This field is required.').max(2000)
            : z.string().trim().max(2000).optional(),
        })
        .optional(),
    }),
  });

// Hand-written, not a resource declaration: ledger transactions are append-only (never created, changed or deleted through a collection), and approve/reject run a trial approval against authority limits.
export function registerApprovalRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const list = (path: string, pendingOnly: boolean) =>
    router.get(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
        schema: {
          summary: pendingOnly
            ? 'Transactions waiting for approval, oldest first.'
            : 'Every ledger transaction (reserves, payments, recoveries, voids), oldest first; 250 a page.',
          tags,
          security,
          querystring: z.strictObject({
            ...pageQuerySchema(250),
            ...ledgerListQuery,
            'filter[transaction_type]': z
              .enum(['reserve', 'payment', 'recovery', 'payment_void', 'recovery_void'])
              .optional(),
          }),
        },
      },
      async (request) => {
        const query = request.query;
        const page = toPageRequest(query);
        const conditions: SQL[] = [];
        // Transactions of claims the caller may not read are not listed (claim-scope.ts).
        const scope = await claimScope(context, request, ledgerTransaction.claimId);
        if (scope) conditions.push(scope);
        if (pendingOnly) conditions.push(eq(ledgerTransaction.status, 'pending_approval'));
        else if (query['filter[transaction_status]']) {
          conditions.push(eq(ledgerTransaction.status, query['filter[transaction_status]']));
        }
        if (query['filter[claim]']) conditions.push(eq(ledgerTransaction.claimId, query['filter[claim]']));
        if (query['filter[exposure]']) conditions.push(eq(ledgerTransaction.exposureId, query['filter[exposure]']));
        if (query['filter[transaction_type]'])
          conditions.push(eq(ledgerTransaction.type, query['filter[transaction_type]']));
        const where = conditions.length > 0 ? and(...conditions) : undefined;
        const { rows, links, meta } = await pageOfRows(context.db, ledgerTransaction, {
          where,
          orderBy: [asc(ledgerTransaction.id)],
          page,
          path: `${LEDGER_BASE}${path}`,
          query,
        });
        return serializeDocument(transactionResource, await withLedgerContext(context.db, rows), { links, meta });
      },
    );
  list('/transactions/', false);
  list('/approvals/', true);

  router.get(
    '/transactions/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: { summary: 'One ledger transaction.', tags, security, params: idParams },
    },
    async (request) => {
      const scope = await claimScope(context, request, ledgerTransaction.claimId);
      return serializeDocument(
        transactionResource,
        await loadTransaction(context, null, Number(request.params.id), scope),
      );
    },
  );

  /** The access policy's answer on approving `pending` (the amount it names), asked outside any transaction. */
  const approvalAllowed = async (request: FastifyRequest, pending: Awaited<ReturnType<typeof loadTransaction>>) => {
    const named = pending.type === 'reserve' ? String(pending.details.new_amount ?? pending.amount) : pending.amount;
    return policyAllows(
      context,
      actorOf(request),
      pending.type as TransactionType,
      'approve',
      accessRecord(pending.type as TransactionType, named, {
        claimId: pending.claimId,
        exposureId: pending.exposureId,
        category: pending.reserveCategory,
      }),
    );
  };

  router.get(
    '/approvals/:id/decision/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: {
        summary: 'Whether the caller may approve or reject a pending transaction, and why not.',
        description:
          'Asks exactly what POST approvals/{id}/approve/ would: the route permission, the requester rule, the access ' +
          'policy on the amount and the authority limits at today’s balances (a trial approval, rolled back). ' +
          'Nothing is written.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const scope = await claimScope(context, request, ledgerTransaction.claimId);
      const pending = await loadTransaction(context, null, id, scope);
      const approver = actorOf(request);
      const routeAllowed = (
        await context.services.evaluator!.evaluate(approver.principal!, claimsPermission('transaction', 'approve'))
      ).allowed;
      const notAllowed = 'This operation is not allowed.';
      const decision: ApprovalDecision = {
        id,
        may_approve: false,
        may_reject: false,
        approve_refusal: routeAllowed ? null : notAllowed,
        reject_refusal: routeAllowed ? null : notAllowed,
      };
      if (routeAllowed && pending.status !== 'pending_approval') {
        decision.approve_refusal = decision.reject_refusal = `Transaction ${pending.number} is not pending.`;
      } else if (routeAllowed && pending.requestedBy.toLowerCase() === approver.username.toLowerCase()) {
        decision.approve_refusal = 'You cannot approve your own transaction.';
        decision.reject_refusal = SELF_REJECTION;
      } else if (routeAllowed) {
        decision.may_reject = true;
        const allowed = await approvalAllowed(request, pending);
        try {
          await context.db.transaction(async (tx) => {
            await approveTransaction(tx, approver, id, null, allowed);
            throw new TrialApproval();
          });
        } catch (error) {
          if (error instanceof TrialApproval) decision.may_approve = true;
          else if (error instanceof ApiError) decision.approve_refusal = error.message;
          else throw error;
        }
      }
      return serializeDocument(decisionResource, decision);
    },
  );

  router.post(
    '/approvals/:id/approve/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'approve') },
      schema: {
        summary: 'Approves and posts a pending transaction.',
        description:
          'The approver may not be the requester, and their own authority (limits and the access policy’s approve on ' +
          'the payment or reserve with its amount) must cover it at today’s balances, else 403. A payment that no longer ' +
          'fits the open reserve is 409 and stays pending. Written to the audit log.',
        tags,
        security,
        params: idParams,
        body: decisionBody(false),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const scope = await claimScope(context, request, ledgerTransaction.claimId);
      const pending = await loadTransaction(context, null, id, scope);
      const approver = actorOf(request);
      // The policy sees the amount the request named (see accessRecord), asked before the transaction opens.
      const allowed = await approvalAllowed(request, pending);
      const row = await context.db.transaction((tx) =>
        approveTransaction(tx, approver, id, request.body.data.attributes?.reason ?? null, allowed),
      );
      return serializeDocument(resourceOfType(row.type), await loadTransaction(context, null, id));
    },
  );

  router.post(
    '/approvals/:id/reject/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'approve') },
      schema: {
        summary: 'Rejects a pending transaction with a reason (required); nothing is posted. Written to the audit log.',
        tags,
        security,
        params: idParams,
        body: decisionBody(true),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const reason = request.body.data.attributes?.reason;
      if (!reason) {
        throw new ApiError(400, 'This field is required.', {
          source: { pointer: '/data/attributes/reason' },
          code: 'required',
        });
      }
      const pending = await loadTransaction(
        context,
        null,
        id,
        await claimScope(context, request, ledgerTransaction.claimId),
      );
      // Four eyes: whoever asked does not decide, neither way.
      if (
        pending.status === 'pending_approval' &&
        pending.requestedBy.toLowerCase() === actorOf(request).username.toLowerCase()
      ) {
        throw new ApiError(403, SELF_REJECTION, { code: 'self_rejection' });
      }
      const row = await context.db.transaction((tx) => rejectTransaction(tx, actorOf(request), id, reason));
      return serializeDocument(resourceOfType(row.type), await loadTransaction(context, null, id));
    },
  );
}
