import { and, eq } from 'drizzle-orm';
import {
  isUniqueViolation,
  ApiError,
  attributeError,
  serializeDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { auditLog } from '../../core/tables.js';

import { claimsPermission } from '../../permissions.js';
import { paymentClearance } from '../clearance-tables.js';
import { currentClearances } from '../clearance.js';
import { paymentResource, withLedgerContext } from '../resources.js';
import { ledgerTransaction, paymentBatch, paymentBatchItem } from '../tables.js';
import { actorOf, dateText, idParams, security, tags } from './schemas.js';

/**
 * POST payments/{id}/clear/ (docs/claims-accounting.md, "Payment processing"): records the date an
 * issued payment cleared the bank. Append-only (payment_clearance): a second call is a correction —
 * a new row naming the one it corrects, with a reason — never an update.
 */

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal('payments'),
    id: z.string().optional(),
    attributes: z.strictObject({
      cleared_date: dateText('Cleared date').nullable(),
      reason: z.string().trim().max(2000, 'Reason must be 2000 characters or less.').optional(),
    }),
  }),
});

export function registerPaymentClearanceRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  router.post(
    '/payments/:id/clear/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'update') },
      schema: {
        summary:
          'Records when an issued payment cleared (cleared_date); again with a reason to correct it (null: not cleared after all).',
        tags,
        security,
        params: idParams,
        body,
      },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const { cleared_date: clearedDate, reason } = request.body.data.attributes;
      // Checked before the transaction (on PGlite the pool's one connection is held by it); the
      // unique indexes refuse a concurrent first clearing or a second correction of one row.
      const [payment] = await db
        .select({
          id: ledgerTransaction.id,
          claimId: ledgerTransaction.claimId,
          number: ledgerTransaction.number,
          status: ledgerTransaction.status,
          type: ledgerTransaction.type,
          runAt: paymentBatch.runAt,
          checkNumber: paymentBatchItem.checkNumber,
        })
        .from(ledgerTransaction)
        .leftJoin(paymentBatchItem, eq(paymentBatchItem.transactionId, ledgerTransaction.id))
        .leftJoin(paymentBatch, eq(paymentBatch.id, paymentBatchItem.batchId))
        .where(and(eq(ledgerTransaction.id, id), eq(ledgerTransaction.type, 'payment')));
      if (!payment) throw new ApiError(404, `Payment ${id} not found.`);
      if (!payment.runAt) {
        throw new ApiError(409, `Payment ${id} has not been issued; only issued payments clear.`, {
          code: 'not_issued',
        });
      }
      const [voided] = await db
        .select({ id: ledgerTransaction.id })
        .from(ledgerTransaction)
        .where(eq(ledgerTransaction.reversesTransactionId, id));
      if (voided && clearedDate !== null) throw new ApiError(409, `Payment ${id} is voided; it cannot clear.`);
      const head = (await currentClearances(db, [id])).get(id) ?? null;
      if (!head && clearedDate === null) throw attributeError('cleared_date', 'This field is required.');
      if (head && !reason) {
        throw attributeError(
          'reason',
          `Give a reason to correct the cleared date ${head.clearedDate ?? '(not cleared)'}.`,
        );
      }
      if (head && head.clearedDate === clearedDate) {
        throw attributeError('cleared_date', `The payment's cleared date is already ${clearedDate ?? 'empty'}.`);
      }
      if (clearedDate !== null) {
        const checkDate = payment.runAt.toISOString().slice(0, 10);
        const today = new Date().toISOString().slice(0, 10);
        if (clearedDate < checkDate)
          throw attributeError('cleared_date', `Cleared date must be ${checkDate} or later.`);
        if (clearedDate > today) throw attributeError('cleared_date', `Cleared date must be ${today} or earlier.`);
      }
      const actor = actorOf(request);
      await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(paymentClearance)
            .values({
              transactionId: id,
              clearedDate,
              correctsId: head?.id ?? null,
              reason: reason || null,
              recordedBy: actor.username,
            })
            .returning();
          await tx.insert(auditLog).values({
            username: actor.username,
            action: head ? 'payment.clear_correct' : 'payment.clear',
            entityType: 'transaction',
            entityId: String(id),
            claimId: payment.claimId,
            reason: reason || null,
            before: head ? { cleared_date: head.clearedDate } : null,
            after: {
              number: payment.number,
              check_number: payment.checkNumber,
              cleared_date: clearedDate,
              clearance_id: row!.id,
            },
          });
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw new ApiError(409, `The cleared date of payment ${id} was just recorded by someone else; reload it.`);
          }
          throw error;
        });
      const [row] = await db.select().from(ledgerTransaction).where(eq(ledgerTransaction.id, id));
      reply.status(201);
      return serializeDocument(paymentResource, (await withLedgerContext(db, [row!]))[0]!);
    },
  );
}
