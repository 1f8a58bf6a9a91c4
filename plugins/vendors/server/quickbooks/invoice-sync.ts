import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { z, type Database } from '@atrium/sdk/server';
import { NotConnected, type VendorConnections } from '../oauth/connections.js';
import { quickbooksInvoice } from '../tables.js';
import { invoiceBody, QuickBooksError, type AccountingClient } from './quickbooks-client.js';

/** The policies module's `policies.policy.issued` data, as far as an invoice needs it. */
const issuedData = z.object({
  policy_id: z.string(),
  policy_number: z.string(),
  named_insured_name: z.string(),
  effective_date: z.string(),
  expiration_date: z.string(),
  premium: z.string().regex(/^-?\d+(\.\d+)?$/),
});

export const POLICY_ISSUED_TOPIC = 'policies.policy.issued';
/** The item an invoice line sells when the administrator named none (QuickBooks' default "Services"). */
export const DEFAULT_ITEM_ID = '1';
const MAX_ATTEMPTS = 8;
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
const retryDelayMs = (attempts: number) => Math.min(60 * 60_000, 5_000 * 2 ** attempts);

export interface SyncResult {
  queued: number;
  sent: number;
  failed: number;
}

/**
 * Sends an invoice to QuickBooks for every policy issued since QuickBooks was first connected.
 *
 * 1. New `policies.policy.issued` outbox events become rows of our own record (one per policy,
 *    unique), each with fresh request ids for its customer and its invoice, before anything is sent.
 * 2. Due rows are claimed with a lease (no transaction is held across a vendor call), then the
 *    customer is found by display name or created, and the invoice created, each create with the
 *    row's request id. A retry — after a timeout, a lost answer, a crash — sends the same ids, so
 *    QuickBooks answers with the entity it already made: one customer and one invoice per policy.
 */
export class InvoiceSync {
  constructor(
    private readonly db: Database,
    private readonly connections: VendorConnections,
    private readonly client: () => AccountingClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Records the invoices still to send for policies issued since `invoices_from`. */
  async queue(): Promise<number> {
    const row = await this.connections.row('quickbooks');
    const from = row.settings.invoices_from;
    if (!row.accessTokenSealed || !row.accountId || !from) return 0;
    const events = await this.db.execute<{ event_id: string; data: unknown }>(sql`
      select o.event_id, o.data from core.event_outbox o
      where o.topic = ${POLICY_ISSUED_TOPIC} and o.event_date >= ${from}::timestamptz
        and not exists (select 1 from vendors.quickbooks_invoice i where i.policy_id = o.data->>'policy_id')
      order by o.id limit 200`);
    let queued = 0;
    for (const event of events.rows) {
      const parsed = issuedData.safeParse(event.data);
      if (!parsed.success) continue;
      const data = parsed.data;
      const inserted = await this.db
        .insert(quickbooksInvoice)
        .values({
          policyId: data.policy_id,
          policyNumber: data.policy_number,
          eventId: event.event_id,
          realmId: row.accountId,
          environment: row.environment,
          customerName: data.named_insured_name,
          amount: data.premium,
          customerRequestId: randomUUID(),
          invoiceRequestId: randomUUID(),
          request: {
            effective_date: data.effective_date,
            expiration_date: data.expiration_date,
          },
        })
        .onConflictDoNothing()
        .returning({ id: quickbooksInvoice.id });
      queued += inserted.length;
    }
    return queued;
  }

  /** Claims due rows: pending, failed and due again, or a sender's lease that lapsed (it crashed). */
  private async claim(ids?: number[]) {
    const now = this.now();
    return this.db
      .update(quickbooksInvoice)
      .set({ status: 'sending', leaseUntil: new Date(now.getTime() + LEASE_MS), updatedAt: now })
      .where(
        inArray(
          quickbooksInvoice.id,
          this.db
            .select({ id: quickbooksInvoice.id })
            .from(quickbooksInvoice)
            .where(
              and(
                ids ? inArray(quickbooksInvoice.id, ids) : undefined,
                or(
                  // A retry by hand does not wait for the failed row's next attempt time.
                  ids ? inArray(quickbooksInvoice.status, ['pending', 'failed']) : undefined,
                  and(
                    inArray(quickbooksInvoice.status, ['pending', 'failed', 'sending']),
                    or(isNull(quickbooksInvoice.leaseUntil), lt(quickbooksInvoice.leaseUntil, now)),
                  ),
                ),
                ids ? undefined : lt(quickbooksInvoice.attempts, MAX_ATTEMPTS),
              ),
            )
            .orderBy(quickbooksInvoice.id)
            .limit(BATCH)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
  }

  /** Queues and sends what is due; `ids` sends those rows now (Retry), whatever their attempts. */
  async run(ids?: number[]): Promise<SyncResult> {
    // The poll runs on every start: with no connection it reads and writes nothing.
    if (!(await this.connections.connected('quickbooks'))) return { queued: 0, sent: 0, failed: 0 };
    const queued = ids ? 0 : await this.queue();
    const rows = await this.claim(ids);
    const result: SyncResult = { queued, sent: 0, failed: 0 };
    if (rows.length === 0) return result;
    const settings = (await this.connections.row('quickbooks')).settings;
    for (const row of rows) {
      if (await this.send(row, settings.invoice_item_id || DEFAULT_ITEM_ID)) result.sent++;
      else result.failed++;
    }
    if (result.sent > 0 && result.failed === 0) await this.connections.recordSync('quickbooks');
    return result;
  }

  private async send(row: typeof quickbooksInvoice.$inferSelect, itemId: string): Promise<boolean> {
    const client = this.client();
    const dates = row.request as { effective_date?: string; expiration_date?: string };
    let customerId = row.customerId;
    try {
      if (!customerId) {
        customerId =
          (await client.findCustomer(row.customerName))?.id ??
          (await client.createCustomer({ displayName: row.customerName }, row.customerRequestId)).id;
        await this.db.update(quickbooksInvoice).set({ customerId }).where(eq(quickbooksInvoice.id, row.id));
      }
      const input = {
        customerId,
        itemId,
        amount: row.amount,
        description: `Policy ${row.policyNumber} premium, ${dates.effective_date} to ${dates.expiration_date}`,
        docNumber: row.policyNumber.slice(0, 21),
        txnDate: dates.effective_date ?? this.now().toISOString().slice(0, 10),
        privateNote: `Atrium policy ${row.policyNumber}`,
      };
      // What goes out is on our record before it is sent: a lost answer still leaves it there.
      const request = { ...dates, customer: { DisplayName: row.customerName }, invoice: invoiceBody(input) };
      await this.db.update(quickbooksInvoice).set({ request }).where(eq(quickbooksInvoice.id, row.id));
      const invoice = await client.createInvoice(input, row.invoiceRequestId);
      const now = this.now();
      await this.db
        .update(quickbooksInvoice)
        .set({
          status: 'sent',
          invoiceId: invoice.id,
          invoiceDocNumber: invoice.docNumber,
          attempts: row.attempts + 1,
          leaseUntil: null,
          lastError: null,
          sentAt: now,
          updatedAt: now,
        })
        .where(eq(quickbooksInvoice.id, row.id));
      return true;
    } catch (error) {
      if (!(error instanceof QuickBooksError || error instanceof NotConnected)) throw error;
      const now = this.now();
      await this.db
        .update(quickbooksInvoice)
        .set({
          status: 'failed',
          attempts: row.attempts + 1,
          leaseUntil: new Date(now.getTime() + retryDelayMs(row.attempts + 1)),
          lastError: error.message,
          updatedAt: now,
        })
        .where(eq(quickbooksInvoice.id, row.id));
      await this.connections.recordError('quickbooks', `Invoice for policy ${row.policyNumber}: ${error.message}`);
      return false;
    }
  }
}
