import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for QuickBooks Online and DocuSign, written from their public references: the
 * OAuth 2.0 authorization code flow with PKCE (Intuit's and DocuSign's account servers), Intuit's
 * token revocation, the QuickBooks Accounting API v3 (`customer`, `invoice`, `query`; `requestid`
 * idempotency: a repeated request id answers the original response; a duplicate DisplayName is
 * Fault 6240) and DocuSign's userinfo and eSignature REST v2.1 `envelopes`. The first path segment
 * is the vendor host (see ATRIUM_VENDORS_TEST_ORIGIN in server/oauth/endpoints.ts). The
 * authorization page consents at once and redirects back, as a signed-in vendor user would.
 */
export interface FakeVendors {
  origin: string;
  clients: Map<string, string>;
  customers: { realm: string; host: string; Id: string; DisplayName: string }[];
  invoices: { realm: string; host: string; Id: string; DocNumber: string; TotalAmt: number; body: any }[];
  envelopes: { account: string; host: string; envelopeId: string; body: any }[];
  requests: { method: string; path: string }[];
  tokenGrants: string[];
  revoked: string[];
  /** Seconds an access token lives (refresh tests shorten it). */
  accessTtl: number;
  /** Create the next invoice, then drop the connection before answering (a lost response). */
  dropNextInvoiceResponse: boolean;
  /** Answer the next API call 401 whatever the token (the vendor revoked it early). */
  rejectNextApiCall: boolean;
  close(): Promise<void>;
}

export const FAKE_REALM = '9130357766900456';
export const FAKE_COMPANY_NAME = 'Atrium Mutual Sandbox Co.';
export const FAKE_DOCUSIGN_ACCOUNT = 'a1b2c3d4-0000-4000-8000-docusign0001';

const b64url = (buffer: Buffer) => buffer.toString('base64url');

export async function startFakeVendors(port = 0): Promise<FakeVendors> {
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; vendor: string }>();
  const access = new Map<string, { expires: number; vendor: string }>();
  const refreshTokens = new Map<string, { clientId: string; vendor: string }>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let nextId = 100;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      try {
        handle(request, response, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        send(response, 500, { error: String(error) });
      }
    });
  });

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const fault = (response: http.ServerResponse, status: number, code: string, message: string, detail = message) =>
    send(response, status, { Fault: { Error: [{ Message: message, Detail: detail, code }], type: 'ValidationFault' } });

  const basicClient = (request: http.IncomingMessage): string | null => {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return null;
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString().split(':');
    return id && fake.clients.get(decodeURIComponent(id)) === decodeURIComponent(secret ?? '')
      ? decodeURIComponent(id)
      : null;
  };
  const bearer = (request: http.IncomingMessage, vendor: string): boolean => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const found = access.get(token);
    return Boolean(found && found.vendor === vendor && found.expires > Date.now());
  };

  const issueTokens = (response: http.ServerResponse, clientId: string, vendor: string) => {
    const accessToken = b64url(randomBytes(24));
    const refreshToken = b64url(randomBytes(24));
    access.set(accessToken, { expires: Date.now() + fake.accessTtl * 1000, vendor });
    refreshTokens.set(refreshToken, { clientId, vendor });
    send(response, 200, {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: fake.accessTtl,
      ...(vendor === 'quickbooks' ? { x_refresh_token_expires_in: 8_726_400 } : {}),
    });
  };

  function handle(request: http.IncomingMessage, response: http.ServerResponse, body: string) {
    const url = new URL(request.url ?? '/', fake.origin);
    const [, host = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    fake.requests.push({ method: request.method ?? 'GET', path: `/${host}${path}` });
    const vendor = host.includes('intuit') ? 'quickbooks' : 'docusign';

    // Authorization endpoints: check the request, consent, redirect back with a code.
    if (
      request.method === 'GET' &&
      ((host === 'appcenter.intuit.com' && path === '/connect/oauth2') || path === '/oauth/auth')
    ) {
      const q = url.searchParams;
      const clientId = q.get('client_id') ?? '';
      if (
        !fake.clients.has(clientId) ||
        q.get('response_type') !== 'code' ||
        q.get('code_challenge_method') !== 'S256'
      ) {
        return send(response, 400, { error: 'invalid_request' });
      }
      const code = b64url(randomBytes(16));
      codes.set(code, {
        clientId,
        redirectUri: q.get('redirect_uri') ?? '',
        challenge: q.get('code_challenge') ?? '',
        vendor,
      });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      if (vendor === 'quickbooks') back.searchParams.set('realmId', FAKE_REALM);
      response.writeHead(302, { location: back.href });
      return response.end();
    }

    // Token endpoints: authorization_code (with PKCE) and refresh_token, client by HTTP Basic.
    if (request.method === 'POST' && (path === '/oauth2/v1/tokens/bearer' || path === '/oauth/token')) {
      const clientId = basicClient(request);
      if (!clientId) return send(response, 401, { error: 'invalid_client' });
      const form = new URLSearchParams(body);
      fake.tokenGrants.push(form.get('grant_type') ?? '');
      if (form.get('grant_type') === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !pending ||
          pending.clientId !== clientId ||
          pending.redirectUri !== form.get('redirect_uri') ||
          b64url(createHash('sha256').update(verifier).digest()) !== pending.challenge
        ) {
          return send(response, 400, { error: 'invalid_grant' });
        }
        return issueTokens(response, clientId, pending.vendor);
      }
      if (form.get('grant_type') === 'refresh_token') {
        const old = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!old || old.clientId !== clientId) return send(response, 400, { error: 'invalid_grant' });
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return issueTokens(response, clientId, old.vendor);
      }
      return send(response, 400, { error: 'unsupported_grant_type' });
    }

    if (request.method === 'POST' && path === '/v2/oauth2/tokens/revoke') {
      if (!basicClient(request)) return send(response, 401, { error: 'invalid_client' });
      const token = request.headers['content-type']?.includes('json')
        ? (JSON.parse(body) as { token: string }).token
        : (new URLSearchParams(body).get('token') ?? '');
      refreshTokens.delete(token);
      fake.revoked.push(token);
      return send(response, 200, {});
    }

    if (path === '/oauth/userinfo') {
      if (!bearer(request, 'docusign')) return send(response, 401, { error: 'invalid_token' });
      const restHost = host === 'account-d.docusign.com' ? 'demo.docusign.net' : 'www.docusign.net';
      return send(response, 200, {
        sub: 'ds-user-1',
        name: 'Dana Signer',
        email: 'dana@carrier.test',
        accounts: [
          {
            account_id: FAKE_DOCUSIGN_ACCOUNT,
            is_default: true,
            account_name: 'Atrium Carrier',
            base_uri: `${fake.origin}/${restHost}`,
          },
        ],
      });
    }

    // QuickBooks Accounting API v3.
    const info = path.match(/^\/v3\/company\/([^/]+)\/companyinfo\/([^/]+)$/);
    if (info && request.method === 'GET') {
      if (!bearer(request, 'quickbooks')) return fault(response, 401, '3200', 'AuthenticationFailed');
      if (info[1] !== FAKE_REALM || info[2] !== FAKE_REALM)
        return fault(response, 403, '3100', 'ApplicationAuthorizationFailed');
      return send(response, 200, {
        CompanyInfo: { Id: '1', CompanyName: FAKE_COMPANY_NAME, Country: 'US' },
        time: new Date().toISOString(),
      });
    }
    const qbo = path.match(/^\/v3\/company\/([^/]+)\/(customer|invoice|query)$/);
    if (qbo && (host === 'sandbox-quickbooks.api.intuit.com' || host === 'quickbooks.api.intuit.com')) {
      if (fake.rejectNextApiCall || !bearer(request, 'quickbooks')) {
        fake.rejectNextApiCall = false;
        return fault(response, 401, '3200', 'AuthenticationFailed', 'message=AuthenticationFailed; errorCode=003200');
      }
      const [, realm, entity] = qbo;
      if (realm !== FAKE_REALM) return fault(response, 403, '3100', 'ApplicationAuthorizationFailed');
      if (entity === 'query') {
        const name = /DisplayName = '((?:[^'\\]|\\.)*)'/
          .exec(url.searchParams.get('query') ?? '')?.[1]
          ?.replace(/\\(.)/g, '$1');
        const found = fake.customers.filter((c) => c.realm === realm && c.host === host && c.DisplayName === name);
        return send(response, 200, {
          QueryResponse: found.length ? { Customer: found, startPosition: 1, maxResults: found.length } : {},
          time: new Date().toISOString(),
        });
      }
      const requestId = url.searchParams.get('requestid');
      const key = requestId ? `${host}/${realm}/${entity}/${requestId}` : null;
      const cached = key ? idempotent.get(key) : undefined;
      if (cached) return send(response, cached.status, cached.body);
      const json = JSON.parse(body || '{}');
      let status = 200;
      let answer: unknown;
      if (entity === 'customer') {
        if (!json.DisplayName) {
          status = 400;
          answer = { Fault: { Error: [{ Message: 'Required param missing', Detail: 'DisplayName', code: '2020' }] } };
        } else if (
          fake.customers.some((c) => c.realm === realm && c.host === host && c.DisplayName === json.DisplayName)
        ) {
          status = 400;
          answer = {
            Fault: {
              Error: [
                {
                  Message: 'Duplicate Name Exists Error',
                  Detail: `The name supplied already exists. : ${json.DisplayName}`,
                  code: '6240',
                },
              ],
            },
          };
        } else {
          const customer = { realm, host, Id: String(nextId++), DisplayName: json.DisplayName as string };
          fake.customers.push(customer);
          answer = {
            Customer: { Id: customer.Id, DisplayName: customer.DisplayName, SyncToken: '0', Active: true },
            time: new Date().toISOString(),
          };
        }
      } else {
        const customerOk = fake.customers.some(
          (c) => c.realm === realm && c.host === host && c.Id === json.CustomerRef?.value,
        );
        if (!customerOk || !Array.isArray(json.Line) || json.Line.length === 0) {
          status = 400;
          answer = {
            Fault: { Error: [{ Message: 'Invalid Reference Id', Detail: 'CustomerRef or Line', code: '2500' }] },
          };
        } else {
          const total = json.Line.reduce((sum: number, line: { Amount: number }) => sum + line.Amount, 0);
          const invoice = {
            realm,
            host,
            Id: String(nextId++),
            DocNumber: json.DocNumber ?? String(nextId),
            TotalAmt: total,
            body: json,
          };
          fake.invoices.push(invoice);
          answer = {
            Invoice: {
              Id: invoice.Id,
              DocNumber: invoice.DocNumber,
              TotalAmt: total,
              CustomerRef: json.CustomerRef,
              Line: json.Line,
              SyncToken: '0',
            },
            time: new Date().toISOString(),
          };
        }
      }
      if (key) idempotent.set(key, { status, body: answer });
      if (entity === 'invoice' && status === 200 && fake.dropNextInvoiceResponse) {
        fake.dropNextInvoiceResponse = false;
        request.socket.destroy();
        return;
      }
      return send(response, status, answer);
    }

    // DocuSign eSignature REST v2.1.
    const envelopes = path.match(/^\/restapi\/v2\.1\/accounts\/([^/]+)\/envelopes$/);
    if (envelopes && request.method === 'POST') {
      if (!bearer(request, 'docusign'))
        return send(response, 401, {
          errorCode: 'USER_AUTHENTICATION_FAILED',
          message: 'One or both of Username and Password are invalid.',
        });
      if (envelopes[1] !== FAKE_DOCUSIGN_ACCOUNT)
        return send(response, 400, { errorCode: 'ACCOUNT_NOT_FOUND', message: 'The account is not known.' });
      const json = JSON.parse(body || '{}');
      const signer = json.recipients?.signers?.[0];
      if (!json.documents?.[0]?.documentBase64 || !signer?.email || !signer?.name) {
        return send(response, 400, {
          errorCode: 'INVALID_REQUEST_BODY',
          message: 'A document and a signer are required.',
        });
      }
      const envelopeId = `env-${nextId++}`;
      fake.envelopes.push({ account: envelopes[1], host, envelopeId, body: json });
      return send(response, 201, {
        envelopeId,
        uri: `/envelopes/${envelopeId}`,
        statusDateTime: new Date().toISOString(),
        status: json.status ?? 'created',
      });
    }
    send(response, 404, { error: `no such endpoint ${host}${path}` });
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const fake: FakeVendors = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clients: new Map(),
    customers: [],
    invoices: [],
    envelopes: [],
    requests: [],
    tokenGrants: [],
    revoked: [],
    accessTtl: 3600,
    dropNextInvoiceResponse: false,
    rejectNextApiCall: false,
    close: () => new Promise((done) => server.close(() => done())),
  };
  return fake;
}
