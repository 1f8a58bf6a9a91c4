import type { VendorEnvironment } from '../../shared/vendors.js';
import type { VendorConnections } from '../oauth/connections.js';
import { endpointsOf } from '../oauth/endpoints.js';

/**
 * What Atrium asks of an accounting system: find or create a customer, create an invoice. Each
 * create carries a request id; the same id sent again must not create a second entity.
 */
export interface AccountingClient {
  findCustomer(displayName: string): Promise<{ id: string } | null>;
  createCustomer(input: CustomerInput, requestId: string): Promise<{ id: string }>;
  createInvoice(input: InvoiceInput, requestId: string): Promise<{ id: string; docNumber: string | null }>;
}

export interface CustomerInput {
  displayName: string;
}

export interface InvoiceInput {
  customerId: string;
  itemId: string;
  /** Decimal string, two places. */
  amount: string;
  description: string;
  docNumber: string;
  txnDate: string;
  privateNote: string;
}

/** A QuickBooks Fault (or HTTP failure) in words; `status` is the HTTP status when there was one. */
export class QuickBooksError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The Accounting API's minor version this client is written against. */
const MINOR_VERSION = '75';
const TIMEOUT_MS = 15_000;

/** `'` is escaped with a backslash in the query language. */
const queryText = (value: string) => value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** The invoice body the Accounting API takes (kept in our record as what was sent). */
export function invoiceBody(input: InvoiceInput): Record<string, unknown> {
  // JSON has no decimal type; a two-place decimal string parses to the double that prints as itself.
  const amount = Number(input.amount);
  return {
    CustomerRef: { value: input.customerId },
    DocNumber: input.docNumber,
    TxnDate: input.txnDate,
    PrivateNote: input.privateNote,
    Line: [
      {
        Amount: amount,
        Description: input.description,
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: { ItemRef: { value: input.itemId }, Qty: 1, UnitPrice: amount },
      },
    ],
  };
}

/**
 * The real QuickBooks Online Accounting API client (v3, JSON): `…/v3/company/{realmId}/customer`,
 * `/invoice` and `/query`, with `requestid` on every create (Intuit's idempotency: a repeated id
 * answers the original response). A 401 refreshes the token once and retries the same request.
 */
export class QuickBooksClient implements AccountingClient {
  constructor(private readonly connections: VendorConnections) {}

  private async call(method: 'GET' | 'POST', entity: string, query: Record<string, string>, body?: unknown) {
    let force = false;
    for (let attempt = 0; ; attempt++) {
      const { token, row } = await this.connections.accessToken('quickbooks', { force });
      const apiBase = endpointsOf('quickbooks', row.environment as VendorEnvironment).api!;
      const url = new URL(`${apiBase}/v3/company/${encodeURIComponent(row.accountId ?? '')}/${entity}`);
      for (const [key, value] of Object.entries({ ...query, minorversion: MINOR_VERSION })) {
        url.searchParams.set(key, value);
      }
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new QuickBooksError(`QuickBooks could not be reached: ${(error as Error).message}`, null);
      }
      if (response.status === 401 && attempt === 0) {
        force = true;
        continue;
      }
      const text = await response.text();
      let json: Record<string, any> = {};
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        throw new QuickBooksError(
          `QuickBooks answered ${response.status} with a body that is not JSON.`,
          response.status,
        );
      }
      const fault = json.Fault?.Error?.[0] ?? json.fault?.error?.[0];
      if (!response.ok || fault) {
        const detail = fault
          ? [fault.Message ?? fault.message, fault.Detail ?? fault.detail].filter(Boolean).join(': ')
          : '';
        throw new QuickBooksError(
          `QuickBooks answered ${response.status}${detail ? `: ${detail}` : '.'}`,
          response.status,
        );
      }
      return json;
    }
  }

  async findCustomer(displayName: string): Promise<{ id: string } | null> {
    const json = await this.call('GET', 'query', {
      query: `select Id, DisplayName from Customer where DisplayName = '${queryText(displayName)}'`,
    });
    const found = json.QueryResponse?.Customer?.[0];
    return found ? { id: String(found.Id) } : null;
  }

  async createCustomer(input: CustomerInput, requestId: string): Promise<{ id: string }> {
    const json = await this.call('POST', 'customer', { requestid: requestId }, { DisplayName: input.displayName });
    return { id: String(json.Customer.Id) };
  }

  async createInvoice(input: InvoiceInput, requestId: string): Promise<{ id: string; docNumber: string | null }> {
    const json = await this.call('POST', 'invoice', { requestid: requestId }, invoiceBody(input));
    return { id: String(json.Invoice.Id), docNumber: json.Invoice.DocNumber ?? null };
  }
}
