import type { VendorConnections } from '../oauth/connections.js';

/** What Atrium asks of an e-signature service: send one document to one signer. */
export interface SignatureClient {
  sendEnvelope(input: EnvelopeInput): Promise<{ envelopeId: string; status: string }>;
}

export interface EnvelopeInput {
  emailSubject: string;
  documentName: string;
  /** File extension DocuSign converts from (pdf, docx, …). */
  fileExtension: string;
  documentBase64: string;
  signerName: string;
  signerEmail: string;
}

export class DocuSignError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

/**
 * A DocuSign account's REST base URI, as userinfo names it, is called only when it is one of
 * DocuSign's own hosts (https, `*.docusign.net`) — or, in tests, the stand-in's origin.
 */
export function acceptedBaseUri(baseUri: string): string | null {
  const testOrigin = process.env.ATRIUM_VENDORS_TEST_ORIGIN;
  if (testOrigin) return baseUri.startsWith(testOrigin.replace(/\/+$/, '') + '/') ? baseUri.replace(/\/+$/, '') : null;
  try {
    const url = new URL(baseUri);
    return url.protocol === 'https:' && url.hostname.endsWith('.docusign.net') ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The real DocuSign eSignature REST API v2.1 client: `POST {base_uri}/restapi/v2.1/accounts/{accountId}/envelopes`
 * with the document inline (base64) and one signer with a sign-here tab anchored on "Signature",
 * status `sent`. A 401 refreshes the token once and retries.
 */
export class DocuSignClient implements SignatureClient {
  constructor(private readonly connections: VendorConnections) {}

  async sendEnvelope(input: EnvelopeInput): Promise<{ envelopeId: string; status: string }> {
    const body = {
      emailSubject: input.emailSubject,
      status: 'sent',
      documents: [
        {
          documentId: '1',
          name: input.documentName,
          fileExtension: input.fileExtension,
          documentBase64: input.documentBase64,
        },
      ],
      recipients: {
        signers: [
          {
            recipientId: '1',
            routingOrder: '1',
            name: input.signerName,
            email: input.signerEmail,
            tabs: {
              signHereTabs: [{ anchorString: 'Signature', anchorUnits: 'pixels', anchorYOffset: '-10' }],
            },
          },
        ],
      },
    };
    let force = false;
    for (let attempt = 0; ; attempt++) {
      const { token, row } = await this.connections.accessToken('docusign', { force });
      const base = row.apiBaseUri ? acceptedBaseUri(row.apiBaseUri) : null;
      if (!base || !row.accountId) throw new DocuSignError('The DocuSign account is not known. Connect again.', null);
      let response: Response;
      try {
        response = await fetch(`${base}/restapi/v2.1/accounts/${encodeURIComponent(row.accountId)}/envelopes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new DocuSignError(`DocuSign could not be reached: ${(error as Error).message}`, null);
      }
      if (response.status === 401 && attempt === 0) {
        force = true;
        continue;
      }
      const json = (await response.json().catch(() => ({}))) as Record<string, string>;
      if (!response.ok || !json.envelopeId) {
        const detail = [json.errorCode, json.message].filter(Boolean).join(': ');
        throw new DocuSignError(`DocuSign answered ${response.status}${detail ? `: ${detail}` : '.'}`, response.status);
      }
      return { envelopeId: json.envelopeId, status: json.status ?? 'sent' };
    }
  }
}

/** The default account userinfo names (DocuSign: read it after connecting; it fixes the REST host). */
export function defaultAccount(userinfo: unknown): { accountId: string; accountName: string; baseUri: string } {
  const accounts = (
    userinfo as { accounts?: { account_id: string; account_name?: string; base_uri: string; is_default?: boolean }[] }
  ).accounts;
  const account = accounts?.find((a) => a.is_default) ?? accounts?.[0];
  if (!account) throw new Error('DocuSign named no account for this user.');
  const baseUri = acceptedBaseUri(account.base_uri);
  if (!baseUri) throw new Error(`DocuSign named an account host Atrium does not call (${account.base_uri}).`);
  return { accountId: account.account_id, accountName: account.account_name ?? account.account_id, baseUri };
}
