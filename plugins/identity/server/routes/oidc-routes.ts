import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { isUniqueViolation, notFound, type AtriumRouter } from '@atrium/sdk/server';
import {
  oidcAuthorizeBody,
  oidcAuthorizeResponse,
  oidcCallbackBody,
  oidcLinkResponse,
  oidcProviderBody,
  oidcProviderPatchBody,
  oidcProviderResponse,
  oidcProviderSummaries,
  signInResponse,
} from '../../shared/identity-schemas.js';
import { identityError } from '../identity-errors.js';
import type { IdentityServices } from '../identity-services.js';
import {
  DEFAULT_OIDC_SCOPES,
  issuerProblem,
  LINK_INFO_MISSING,
  LINK_SUCCESS,
  LOGIN_ERROR,
  OidcFederation,
  registeredRedirectUriProblem,
  type OidcProviderRecord,
} from '../oidc-federation.js';
import { SignInFlow } from '../sign-in-flow.js';
import { oidcProvider } from '../tables.js';

const tags = ['identity'];
const security = [{ bearer: [] }];
const providerParams = z.strictObject({ id: z.uuid() });

function providerResponse(row: OidcProviderRecord) {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    has_client_secret: !!row.clientSecret,
    scopes: row.scopes,
    enabled: row.enabled,
    link_by_email: row.linkByEmail,
    redirect_uris: row.redirectUris,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** External OpenID Connect providers: administration, sign-in through them, and linking accounts. */
export function oidcRoutes(router: AtriumRouter, services: IdentityServices) {
  const federation = new OidcFederation(services, router.log);
  const flow = new SignInFlow(services);

  const checkIssuer = (issuer: string | undefined) => {
    const problem = issuer === undefined ? null : issuerProblem(issuer);
    if (problem) throw identityError('InvalidParameterException', problem, { pointer: '/issuer' });
  };
  const checkRedirectUris = (uris: string[] | undefined) => {
    for (const [index, uri] of (uris ?? []).entries()) {
      const problem = registeredRedirectUriProblem(uri);
      if (problem) throw identityError('InvalidParameterException', problem, { pointer: `/redirect_uris/${index}` });
    }
  };
  const uniqueName = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error))
        throw identityError('InvalidParameterException', 'A provider with this name exists.', { pointer: '/name' });
      throw error;
    }
  };

  router.get(
    '/oidc-providers',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The enabled external providers, for the sign-in page (id and name only).',
        tags,
        response: { 200: oidcProviderSummaries },
      },
    },
    async () => {
      const rows = await services.db
        .select()
        .from(oidcProvider)
        .where(eq(oidcProvider.enabled, true))
        .orderBy(oidcProvider.name);
      return { providers: rows.map((row) => ({ id: row.id, name: row.name })) };
    },
  );

  router.get(
    '/oidc-providers/all',
    {
      config: { access: { resource: 'identity:oidc-provider', action: 'read' } },
      schema: {
        summary: 'Every provider, enabled or not, with its settings (never its client secret), by name.',
        tags,
        security,
        response: { 200: z.object({ providers: z.array(oidcProviderResponse) }) },
      },
    },
    async () => {
      const rows = await services.db.select().from(oidcProvider).orderBy(oidcProvider.name);
      return { providers: rows.map(providerResponse) };
    },
  );

  router.post(
    '/oidc-providers',
    {
      config: { access: { resource: 'identity:oidc-provider', action: 'create' } },
      schema: {
        summary: 'Adds an external OpenID Connect provider (issuer, client id and secret, scopes).',
        tags,
        security,
        body: oidcProviderBody,
        response: { 201: oidcProviderResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      checkIssuer(body.issuer);
      checkRedirectUris(body.redirect_uris);
      const now = services.clock.now();
      const id = randomUUID();
      const [row] = await uniqueName(() =>
        services.db
          .insert(oidcProvider)
          .values({
            id,
            name: body.name,
            issuer: body.issuer,
            clientId: body.client_id,
            clientSecret: services.oidcSecrets.seal(id, body.client_secret ?? null),
            scopes: body.scopes ?? DEFAULT_OIDC_SCOPES,
            enabled: body.enabled ?? true,
            linkByEmail: body.link_by_email ?? false,
            redirectUris: body.redirect_uris ?? [],
            createdAt: now,
            updatedAt: now,
          })
          .returning(),
      );
      return reply.status(201).send(providerResponse(row!));
    },
  );

  router.get(
    '/oidc-providers/:id',
    {
      config: { access: { resource: 'identity:oidc-provider', action: 'read' } },
      schema: {
        summary: 'One provider, without its client secret.',
        tags,
        security,
        params: providerParams,
        response: { 200: oidcProviderResponse },
      },
    },
    async (request) => {
      const [row] = await services.db
        .select()
        .from(oidcProvider)
        .where(eq(oidcProvider.id, request.params.id))
        .limit(1);
      if (!row) throw notFound();
      return providerResponse(row);
    },
  );

  router.patch(
    '/oidc-providers/:id',
    {
      config: { access: { resource: 'identity:oidc-provider', action: 'update' } },
      schema: {
        summary: 'Changes a provider; `client_secret: null` makes it a public client.',
        tags,
        security,
        params: providerParams,
        body: oidcProviderPatchBody,
        response: { 200: oidcProviderResponse },
      },
    },
    async (request) => {
      const body = request.body;
      checkIssuer(body.issuer);
      checkRedirectUris(body.redirect_uris);
      const [row] = await uniqueName(() =>
        services.db
          .update(oidcProvider)
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.issuer !== undefined ? { issuer: body.issuer } : {}),
            ...(body.client_id !== undefined ? { clientId: body.client_id } : {}),
            ...(body.client_secret !== undefined
              ? { clientSecret: services.oidcSecrets.seal(request.params.id, body.client_secret) }
              : {}),
            ...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
            ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
            ...(body.link_by_email !== undefined ? { linkByEmail: body.link_by_email } : {}),
            ...(body.redirect_uris !== undefined ? { redirectUris: body.redirect_uris } : {}),
            updatedAt: services.clock.now(),
          })
          .where(eq(oidcProvider.id, request.params.id))
          .returning(),
      );
      if (!row) throw notFound();
      federation.forget(row.id);
      return providerResponse(row);
    },
  );

  router.delete(
    '/oidc-providers/:id',
    {
      config: { access: { resource: 'identity:oidc-provider', action: 'delete' } },
      schema: {
        summary: 'Removes a provider and every account link to it.',
        tags,
        security,
        params: providerParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const removed = await services.db
        .delete(oidcProvider)
        .where(eq(oidcProvider.id, request.params.id))
        .returning({ id: oidcProvider.id });
      if (removed.length === 0) throw notFound();
      federation.forget(request.params.id);
      return reply.status(204).send(null);
    },
  );

  router.post(
    '/oidc/authorize',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Starts sign-in with an external provider: authorization code flow with PKCE, state and nonce.',
        description:
          'Send the browser to `authorization_url`; the provider returns to `redirect_uri` (/login/idpresponse).',
        tags,
        body: oidcAuthorizeBody,
        response: { 200: oidcAuthorizeResponse },
      },
    },
    async (request) => federation.begin(request.body.provider_id, request.body.redirect_uri, 'sign-in', null),
  );

  router.post(
    '/oidc/callback',
    {
      config: { access: 'public' },
      schema: {
        summary: "Finishes sign-in with the provider's callback parameters (code, state, iss) from /login/idpresponse.",
        description:
          "NotAuthorizedException 'There was an error attempting to log in' when the provider refused, the state is " +
          'unknown, used or older than 10 minutes, or the provider account is linked to no user.',
        tags,
        body: oidcCallbackBody,
        response: { 200: signInResponse },
      },
    },
    async (request) => {
      const identity = await federation.finish(request.body, 'sign-in', null);
      const record = await federation.userFor(identity);
      if (!record) {
        throw identityError('NotAuthorizedException', LOGIN_ERROR, {
          // The client may offer to link the account (sign in with a password, then My Account).
          meta: { reason: 'not-linked' },
        });
      }
      if (!record.enabled) throw identityError('NotAuthorizedException', 'User is disabled.');
      return flow.at(request.ip).complete(record);
    },
  );

  router.post(
    '/oidc/link/authorize',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "Starts linking the caller's account to an external provider account.",
        tags,
        security,
        body: oidcAuthorizeBody,
        response: { 200: oidcAuthorizeResponse },
      },
    },
    async (request) =>
      federation.begin(request.body.provider_id, request.body.redirect_uri, 'link', request.principal!.subject),
  );

  router.post(
    '/oidc/link/callback',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Finishes linking: the provider account then signs in as the caller.',
        description: `InvalidParameterException '${LINK_INFO_MISSING}' when the provider gave no usable identity.`,
        tags,
        security,
        body: oidcCallbackBody,
        response: { 200: oidcLinkResponse },
      },
    },
    async (request) => {
      let identity;
      try {
        identity = await federation.finish(request.body, 'link', request.principal!.subject);
      } catch (error) {
        if ((error as { code?: string }).code === 'NotAuthorizedException')
          throw identityError('InvalidParameterException', LINK_INFO_MISSING);
        throw error;
      }
      await federation.link(identity, request.principal!.subject);
      return { status: 'SUCCESS' as const, message: LINK_SUCCESS };
    },
  );
}
