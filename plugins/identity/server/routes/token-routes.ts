import { z } from 'zod';
import type { AtriumRouter } from '@atrium/sdk/server';
import { authenticationResult, refreshBody, signOutBody, successResponse } from '../../shared/identity-schemas.js';
import { identityError } from '../identity-errors.js';
import type { IdentityServices } from '../identity-services.js';
import { SignInFlow } from '../sign-in-flow.js';

const tags = ['identity'];

/** Refresh, sign-out, global sign-out and the public keys that verify access tokens. */
export function tokenRoutes(router: AtriumRouter, services: IdentityServices) {
  const flow = new SignInFlow(services);

  router.post(
    '/tokens/refresh',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Trades a refresh token for a new access token and a new refresh token (rotation).',
        description:
          'A refresh token works once. Presenting one that was already used revokes the whole session ' +
          "(NotAuthorizedException 'Refresh Token has been revoked'); so does signing out.",
        tags,
        body: refreshBody,
        response: { 200: z.object({ authentication_result: authenticationResult }) },
      },
    },
    async (request) => ({ authentication_result: await flow.refresh(request.body.refresh_token) }),
  );

  router.post(
    '/sign-out',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Ends the session of the refresh token: its refresh and access tokens stop working.',
        tags,
        body: signOutBody,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await flow.signOut(request.body.refresh_token);
      return { status: 'SUCCESS' as const };
    },
  );

  router.post(
    '/global-sign-out',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Ends every session of the caller, on every device.',
        tags,
        security: [{ bearer: [] }],
        response: { 200: successResponse },
      },
    },
    async (request) => {
      if (request.principal!.kind !== 'user') {
        // A machine client has no sessions; its tokens end with its revocation (app-clients).
        throw identityError(
          'NotAuthorizedException',
          'Only a user can sign out globally; a machine client has no sessions.',
        );
      }
      await flow.endAllSessions(request.principal!.subject, 'global-sign-out');
      return { status: 'SUCCESS' as const };
    },
  );

  router.get(
    '/.well-known/jwks.json',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The public keys that verify access tokens (JWK Set).',
        tags,
        response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
      },
    },
    async () => services.keys.publicJwks(),
  );
}
