import { isApiRequestError } from '@atrium/sdk';
import { fromPromise } from 'xstate';
import type { z } from 'zod';
import type { codeDeliveryResponse } from '../../shared/identity-schemas.js';
import type { CodeDeliveryDetails, NextStep, ProviderCallback, SignInResponse } from '../machines/sign-in-machine.js';
import type { AuthenticationResult, SessionClient } from '../session/session-client.js';

/**
 * The sign-in machine's calls against the identity service (docs/identity.md, "Sign-in").
 *
 * Legacy-contact migration: on UserNotFoundException the client asks `POST migrate_gen2_contact`
 * (user management, JSON:API) to bring the account over from the previous portal, then signs in
 * again once. This server's sign-in never says UserNotFoundException (that would reveal which
 * addresses have accounts; its migration hook runs inside sign-in), so the path is kept for identity
 * services that do; migrate_gen2_contact answers 404 when there is nothing to migrate.
 */
export function signInActors(session: SessionClient) {
  const api = session.publicApi;
  return {
    signIn: fromPromise<SignInResponse, { username: string; password: string }>(({ input }) =>
      api.post<SignInResponse>('identity/sign-in', input),
    ),
    migrateLegacyContact: fromPromise<boolean, { username: string; password: string }>(async ({ input }) => {
      try {
        await api.post(
          'identity/user-management/migrate_gen2_contact',
          { data: { type: 'gen2-contact-migration', attributes: input } },
          { jsonApi: true },
        );
        return true;
      } catch (error) {
        if (isApiRequestError(error) && error.status === 404) return false;
        throw error;
      }
    }),
    answerNewPassword: fromPromise<SignInResponse, { username: string; session: string; password: string }>(
      ({ input }) =>
        api.post<SignInResponse>('identity/challenges/new-password', {
          username: input.username,
          session: input.session,
          new_password: input.password,
        }),
    ),
    answerMfa: fromPromise<SignInResponse, { username: string; session: string; code: string }>(({ input }) =>
      api.post<SignInResponse>('identity/challenges/mfa', input),
    ),
    resendCode: fromPromise<CodeDeliveryDetails, { username: string; session: string }>(async ({ input }) => {
      const answer = await api.post<z.infer<typeof codeDeliveryResponse>>('identity/challenges/mfa/resend', input);
      return answer.code_delivery_details;
    }),
    signInWithProvider: fromPromise<SignInResponse, ProviderCallback>(({ input }) =>
      api.post<SignInResponse>('identity/oidc/callback', input),
    ),
    completeSignIn: fromPromise<NextStep, AuthenticationResult>(({ input }) => completeSignIn(session, input)),
  };
}

/**
 * Stores the session, then the effective role: the chosen_role cookie or the only role are taken
 * as they are; several roles and no choice send the user to the role picker; none is an error page.
 */
export async function completeSignIn(session: SessionClient, result: AuthenticationResult): Promise<NextStep> {
  try {
    const user = await session.establish(result);
    const roles = await session.roles();
    if (roles.length === 0) return 'noRoles';
    if (user.effective_role && roles.includes(user.effective_role)) return 'continue';
    if (roles.length === 1) {
      await session.selectRole(roles[0]!);
      return 'continue';
    }
    return 'chooseRole';
  } catch (error) {
    // Half a sign-in is none: the user starts again from the login page, signed out.
    await session.discard().catch(() => {});
    throw error;
  }
}
