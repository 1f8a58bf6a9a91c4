/**
 * The vendors Atrium connects to, shared by both halves. Labels are what the screens show; the ids
 * and environment values never are.
 */
export const VENDOR_IDS = ['quickbooks', 'docusign'] as const;
export type VendorId = (typeof VENDOR_IDS)[number];

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type VendorEnvironment = (typeof ENVIRONMENTS)[number];

export const VENDOR_LABELS: Record<VendorId, { name: string; kind: string; description: string }> = {
  quickbooks: {
    name: 'QuickBooks Online',
    kind: 'Accounting',
    description: 'Creates a customer and an invoice in QuickBooks for every policy issued.',
  },
  docusign: {
    name: 'DocuSign',
    kind: 'E-signature',
    description: 'Sends quote documents to be signed through DocuSign envelopes.',
  },
};

export const ENVIRONMENT_LABELS: Record<VendorEnvironment, string> = {
  sandbox: 'Sandbox',
  production: 'Production',
};

/** not_configured: no app credentials; disconnected: credentials, no tokens; expired: refresh token lapsed. */
export type ConnectionStatus = 'not_configured' | 'disconnected' | 'connected' | 'expired' | 'error';

export const STATUS_LABELS: Record<ConnectionStatus, string> = {
  not_configured: 'Not set up',
  disconnected: 'Not connected',
  connected: 'Connected',
  expired: 'Connection expired',
  error: 'Connected, last call failed',
};

/** What GET /api/vendors/connections/{vendor} answers (plain JSON). */
export interface ConnectionView {
  vendor: VendorId;
  name: string;
  kind: string;
  environment: VendorEnvironment;
  status: ConnectionStatus;
  client_id: string | null;
  client_secret_set: boolean;
  account_id: string | null;
  account_name: string | null;
  connected_by: string | null;
  connected_at: string | null;
  access_expires_at: string | null;
  last_refresh_at: string | null;
  last_sync_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  settings: Record<string, string>;
}

/** The message the host's /oauth2callback popup posts to its opener (packages/host oauth2-callback.ts). */
export const OAUTH2_CALLBACK_MESSAGE = 'atrium:oauth2callback';
