import type { AtriumRouter } from '@atrium/sdk/server';
import {
  changePasswordBody,
  codeDeliveryResponse,
  confirmForgotPasswordBody,
  forgotPasswordBody,
  successResponse,
} from '../../shared/identity-schemas.js';
import { identityError, INCORRECT_CREDENTIALS } from '../identity-errors.js';
import type { IdentityServices } from '../identity-services.js';
import type { ThrottleHook } from '../sign-in-rate-limits.js';
import { readPasswordPolicy } from '../identity-settings.js';
import { SignInFlow } from '../sign-in-flow.js';

const tags = ['identity'];

/** Forgotten and changed passwords. */
export function passwordRoutes(router: AtriumRouter, services: IdentityServices, throttle: ThrottleHook) {
  const flow = new SignInFlow(services);

  router.post(
    '/forgot-password',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary: 'E-mails a password reset code (valid 10 minutes). Answers the same for unknown usernames.',
        description: 'At most 5 requests per username an hour, then LimitExceededException (429).',
        tags,
        body: forgotPasswordBody,
        response: { 200: codeDeliveryResponse },
      },
    },
    async (request) => ({ code_delivery_details: await flow.at(request.ip).forgotPassword(request.body.username) }),
  );

  router.post(
    '/forgot-password/confirm',
    {
      config: { access: 'public' },
      onRequest: throttle,
      schema: {
        summary: 'Sets a new password with the e-mailed code and ends every session of the account.',
        description:
          'Errors: CodeMismatchException, ExpiredCodeException, InvalidParameterException (password policy).',
        tags,
        body: confirmForgotPasswordBody,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await flow.at(request.ip).confirmForgotPassword(request.body.username, request.body.code, request.body.password);
      return { status: 'SUCCESS' as const };
    },
  );

  router.post(
    '/password',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "Changes the caller's password; other sessions end, this one goes on.",
        tags,
        security: [{ bearer: [] }],
        body: changePasswordBody,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const record = await services.users.findById(principal.subject);
      if (!record) throw identityError('NotAuthorizedException', 'Access Token has been revoked');
      const lockedUntil = await services.throttle.lockedUntil(record.username, request.ip);
      if (lockedUntil) throw identityError('NotAuthorizedException', 'Password attempts exceeded');
      if (!(await services.hasher.verify(record.passwordHash, request.body.previous_password))) {
        await services.throttle.recordFailure(record.username, request.ip);
        throw identityError('NotAuthorizedException', INCORRECT_CREDENTIALS);
      }
      const policy = await readPasswordPolicy(services.db);
      flow.enforcePolicy(request.body.proposed_password, policy);
      if (await services.users.reusesPassword(record, request.body.proposed_password, policy.password_history_size)) {
        throw identityError('InvalidParameterException', 'Password has previously been used.', {
          pointer: '/proposed_password',
        });
      }
      await services.users.setPassword(
        record,
        request.body.proposed_password,
        'CONFIRMED',
        policy.password_history_size,
      );
      await services.sessions.revokeAllOfExcept(
        record.id,
        principal.attributes?.sessionId as string,
        'password-change',
      );
      return { status: 'SUCCESS' as const };
    },
  );
}
