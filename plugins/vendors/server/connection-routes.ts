import type { FastifyRequest } from 'fastify';
import { z, type AtriumRouter } from '@atrium/sdk/server';
import { ENVIRONMENTS, VENDOR_IDS, type VendorId } from '../shared/vendors.js';
import type { VendorConnections } from './oauth/connections.js';
import { can } from './permissions.js';

const tags = ['vendors'];
const security = [{ bearer: [] as string[] }];

/**
 * The popup returns to the host's own `/oauth2callback` page (packages/host), on the origin users
 * reach the app at: ATRIUM_PUBLIC_URL when set, else the origin of this request. The vendor's app must
 * list it as a redirect URI.
 */
export function redirectUriOf(request: FastifyRequest): string {
  const configured = process.env.ATRIUM_PUBLIC_URL?.trim();
  const origin = configured ? new URL(configured).origin : `${request.protocol}://${request.host}`;
  return `${origin}/oauth2callback`;
}

const text = (max: number) => z.string().trim().min(1, 'This field is required.').max(max);
const settingsSchema = z
  .object({
    invoice_item_id: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, 'An item id is digits.'),
  })
  .partial()
  .strict();
const configAttributes = z
  .object({
    environment: z.enum(ENVIRONMENTS, { error: 'The environment is sandbox or production.' }),
    client_id: text(200),
    client_secret: text(500),
    settings: settingsSchema,
  })
  .partial()
  .strict();
const vendorParams = z.object({ vendor: z.enum(VENDOR_IDS, { error: 'Not a vendor Atrium connects to.' }) });
const callbackBody = z
  .object({
    state: z.string().max(500).default(''),
    code: z.string().max(4000).optional(),
    realmId: z.string().max(100).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
  })
  .strict();

/**
 * Connection routes. The spec's vendor calls live on an accounting host and an e-signature host;
 * Atrium serves both below `/api` (this plugin's prefix), as it does the spec's events and data
 * mapping hosts: `GET/DELETE /api/accounting/quickbooks/oauth/auth`, `GET/PATCH /api/esignature/config/`,
 * `GET /api/esignature/oauth/url`, `DELETE /api/esignature/oauth`. The vendor directory, QuickBooks'
 * own settings and the popup's completion are this module's (`/api/vendors/…`).
 */
export function connectionRoutes(
  router: AtriumRouter,
  connections: VendorConnections,
  finish: (params: Record<string, string>, username: string) => Promise<unknown>,
): void {
  const startBody = async (vendor: VendorId, request: FastifyRequest) => {
    const url = await connections.start(vendor, redirectUriOf(request), request.principal.username);
    return { data: await connections.view(vendor), links: { authorization_url: url } };
  };

  router.get(
    '/accounting/quickbooks/oauth/auth',
    {
      config: { access: can('connection', 'update') },
      schema: {
        summary: 'Starts connecting QuickBooks Online: links.authorization_url is the page the popup opens.',
        tags,
        security,
      },
    },
    (request) => startBody('quickbooks', request),
  );
  router.delete(
    '/accounting/quickbooks/oauth/auth',
    {
      config: { access: can('connection', 'update') },
      schema: { summary: 'Disconnects QuickBooks Online: revokes and forgets its tokens.', tags, security },
    },
    async () => ({ data: await connections.disconnect('quickbooks') }),
  );

  const configDocument = async () => {
    const view = await connections.view('docusign');
    return { data: { type: 'config', id: 'docusign', attributes: view } };
  };
  router.get(
    '/esignature/config/',
    {
      config: { access: can('connection', 'read') },
      schema: { summary: 'The DocuSign configuration and connection status.', tags, security },
    },
    configDocument,
  );
  router.patch(
    '/esignature/config/',
    {
      config: { access: can('connection', 'update') },
      schema: {
        summary: 'Changes the DocuSign app credentials (integration key, secret) or environment.',
        tags,
        security,
        body: z.object({ data: z.object({ type: z.literal('config'), attributes: configAttributes }) }),
      },
    },
    async (request) => {
      const a = request.body.data.attributes;
      await connections.configure('docusign', {
        environment: a.environment,
        clientId: a.client_id,
        clientSecret: a.client_secret,
      });
      return configDocument();
    },
  );
  router.get(
    '/esignature/oauth/url',
    {
      config: { access: can('connection', 'update') },
      schema: {
        summary: 'Starts connecting DocuSign: links.authorization_url is the page the popup opens.',
        tags,
        security,
      },
    },
    (request) => startBody('docusign', request),
  );
  router.delete(
    '/esignature/oauth',
    {
      config: { access: can('connection', 'update') },
      schema: { summary: 'Disconnects DocuSign: forgets its tokens.', tags, security },
    },
    async () => ({ data: await connections.disconnect('docusign') }),
  );

  router.get(
    '/vendors/connections/',
    {
      config: { access: can('connection', 'read') },
      schema: { summary: 'The vendor directory: every vendor with its connection status.', tags, security },
    },
    async () => ({ results: await Promise.all(VENDOR_IDS.map((v) => connections.view(v))) }),
  );
  router.get(
    '/vendors/connections/:vendor/',
    {
      config: { access: can('connection', 'read') },
      schema: { summary: 'One vendor connection.', tags, security, params: vendorParams },
    },
    async (request) => connections.view(request.params.vendor),
  );
  router.patch(
    '/vendors/connections/:vendor/',
    {
      config: { access: can('connection', 'update') },
      schema: {
        summary: 'Sets a vendor app’s credentials, environment (sandbox or production) and settings.',
        tags,
        security,
        params: vendorParams,
        body: configAttributes,
      },
    },
    async (request) =>
      connections.configure(request.params.vendor, {
        environment: request.body.environment,
        clientId: request.body.client_id,
        clientSecret: request.body.client_secret,
        settings: request.body.settings as Record<string, string> | undefined,
      }),
  );
  router.post(
    '/vendors/oauth/callback',
    {
      config: { access: can('connection', 'update') },
      schema: {
        summary: 'Completes a connection with the query the vendor returned to /oauth2callback.',
        tags,
        security,
        body: callbackBody,
      },
    },
    async (request) => {
      const params = Object.fromEntries(
        Object.entries(request.body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      return finish(params, request.principal.username);
    },
  );
}
