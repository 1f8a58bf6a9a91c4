import type { AtriumRouter } from '@atrium/sdk/server';
import {
  codeDeliveryResponse,
  mfaAnswerBody,
  mfaResendBody,
  newPasswordBody,
  signInBody,
  signInResponse,
} from '../../shared/identity-schemas.js';
import type { IdentityServices } from '../identity-services.js';
import type { ThrottleHook } from '../sign-in-rate-limits.js';
import { SignInFlow } from '../sign-in-flow.js';

const tags = ['identity'];

/** Password sign-in and the answers to its challenges. */
export function signInRoutes(router: AtriumRouter, services: IdentityServices, throttle: ThrottleHook) {
  const flow = new SignInFlow(services);

  router.post(
    '/sign-in',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary:
          'Password sign-in: tokens, or the next challenge (NEW_PASSWORD_REQUIRED, SMS_MFA, SOFTWARE_TOKEN_MFA).',
        description:
          'Errors (problem+json `code`): NotAuthorizedException (wrong password or unknown user — the same answer; ' +
          "'Password attempts exceeded' while locked, with Retry-After), PasswordResetRequiredException (a reset code was " +
          'e-mailed; `code_delivery_details`), MFAMethodNotFoundException, LimitExceededException, InvalidParameterException.',
        tags,
        body: signInBody,
        response: { 200: signInResponse },
      },
    },
    async (request) => flow.at(request.ip).signIn(request.body.username, request.body.password),
  );

  router.post(
    '/challenges/new-password',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary: 'Answers NEW_PASSWORD_REQUIRED (temporary password) with a new password; MFA may follow.',
        tags,
        body: newPasswordBody,
        response: { 200: signInResponse },
      },
    },
    async (request) =>
      flow.at(request.ip).answerNewPassword(request.body.username, request.body.session, request.body.new_password),
  );

  router.post(
    '/challenges/mfa',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary: 'Answers SMS_MFA or SOFTWARE_TOKEN_MFA with the code; the challenge session lasts 3 minutes.',
        description:
          'Errors: CodeMismatchException, ExpiredCodeException (SMS code older than 10 minutes, or a TOTP code used ' +
          "before), NotAuthorizedException ('Invalid session for the user, session is expired.').",
        tags,
        body: mfaAnswerBody,
        response: { 200: signInResponse },
      },
    },
    async (request) => flow.at(request.ip).answerMfa(request.body.username, request.body.session, request.body.code),
  );

  router.post(
    '/challenges/mfa/resend',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary: 'Sends a new SMS code for an open SMS_MFA challenge (at most 3 times; LimitExceededException).',
        tags,
        body: mfaResendBody,
        response: { 200: codeDeliveryResponse },
      },
    },
    async (request) => ({
      code_delivery_details: await flow.at(request.ip).resendMfaCode(request.body.username, request.body.session),
    }),
  );
}
