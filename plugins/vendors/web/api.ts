import type { ConnectionView } from '../shared/vendors.js';

/** Server state of the vendor screens (TanStack Query keys under `['vendors', …]`). */
export const keys = {
  all: ['vendors'] as const,
  directory: ['vendors', 'directory'] as const,
  connection: (vendor: string) => ['vendors', 'connection', vendor] as const,
  invoices: ['vendors', 'invoices'] as const,
  envelopes: ['vendors', 'envelopes'] as const,
};

export type { ConnectionView };

export interface InvoiceRecord {
  id: number;
  policy_number: string;
  customer_name: string;
  amount: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  invoice_id: string | null;
  invoice_doc_number: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface EnvelopeRecord {
  id: number;
  quote_number: string;
  document_name: string;
  signer_name: string;
  signer_email: string;
  status: string;
  envelope_id: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export const INVOICE_STATUS_LABELS: Record<InvoiceRecord['status'], string> = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed, will retry',
};

export const ENVELOPE_STATUS_LABELS: Record<string, string> = {
  pending: 'Sending',
  sent: 'Sent for signature',
  created: 'Draft',
  completed: 'Signed',
  failed: 'Failed',
};

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');
