import type { AtriumRouter, Principal } from '@atrium/sdk/server';
import {
  associateSoftwareTokenBody,
  associateSoftwareTokenResponse,
  mfaPreferenceBody,
  sessionUser,
  successResponse,
  verifySoftwareTokenBody,
} from '../../shared/identity-schemas.js';
import { identityError, INCORRECT_CREDENTIALS, PASSWORD_ATTEMPTS_EXCEEDED } from '../identity-errors.js';
import type { IdentityServices } from '../identity-services.js';
import { matchTotpStep, newTotpSecret, otpauthUri } from '../totp.js';
import type { UserRecord } from '../user-store.js';

const tags = ['identity'];
const security = [{ bearer: [] }];
const ADMINISTRATOR_ROLE = 'Administrator';

export function sessionUserOf(record: UserRecord, roles: string[], principal: Principal) {
  return {
    id: record.id,
    username: record.username,
    email: record.email,
    email_verified: record.emailVerified,
    name: record.name,
    phone_number: record.phoneNumber,
    phone_number_verified: record.phoneNumberVerified,
    picture: record.picture,
    groups: roles,
    is_employee: record.isEmployee,
    is_admin: roles.includes(ADMINISTRATOR_ROLE),
    effective_role: principal.effectiveRole,
    updated_at: record.updatedAt.toISOString(),
    mfa: {
      preferred: (record.preferredMfa as 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA' | null) ?? null,
      sms_mfa_enabled: record.smsMfaEnabled,
      software_token_mfa_enabled: record.softwareTokenMfaEnabled,
      software_token_verified: !!record.totpSecret,
    },
  };
}

/** The caller's own session and second factors (the server half of My Account → Security). */
export function accountRoutes(router: AtriumRouter, services: IdentityServices) {
  const callerRecord = async (principal: Principal): Promise<UserRecord> => {
    const record = await services.users.findById(principal.subject);
    if (!record) throw identityError('NotAuthorizedException', 'Access Token has been revoked');
    return record;
  };

  /** Changing a factor asks for the password again; failures count towards the lockout. */
  const confirmPassword = async (record: UserRecord, password: string, source: string) => {
    if (await services.throttle.lockedUntil(record.username, source))
      throw identityError('NotAuthorizedException', PASSWORD_ATTEMPTS_EXCEEDED);
    if (!(await services.hasher.verify(record.passwordHash, password))) {
      await services.throttle.recordFailure(record.username, source);
      throw identityError('NotAuthorizedException', INCORRECT_CREDENTIALS, { pointer: '/password' });
    }
  };

  router.get(
    '/session',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'The signed-in user: name, e-mail, roles (groups), updated_at, picture, MFA preference.',
        description: 'The web client refreshes its tokens when updated_at is later than its access token was issued.',
        tags,
        security,
        response: { 200: sessionUser },
      },
    },
    async (request) => {
      const record = await callerRecord(request.principal!);
      return sessionUserOf(record, await services.rolesOf(record), request.principal!);
    },
  );

  router.put(
    '/mfa-preference',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Enables, disables or prefers SMS and authenticator-app MFA for the caller.',
        description:
          'Setting a method preferred also enables it; disabling it also clears preferred. SMS needs a phone number; ' +
          'the authenticator app needs a verified software token. Requires the current password.',
        tags,
        security,
        body: mfaPreferenceBody,
        response: { 200: sessionUser },
      },
    },
    async (request) => {
      const record = await callerRecord(request.principal!);
      await confirmPassword(record, request.body.password, request.ip);
      const { sms_mfa: sms, software_token_mfa: softwareToken } = request.body;
      if (sms?.preferred && softwareToken?.preferred) {
        throw identityError('InvalidParameterException', 'Only one MFA method can be preferred.');
      }
      const changes: Partial<UserRecord> = {};
      let preferred = record.preferredMfa;
      if (sms) {
        const enabled = sms.enabled || sms.preferred;
        if (enabled && !record.phoneNumber) {
          throw identityError('InvalidParameterException', 'User does not have a phone number for SMS MFA.', {
            pointer: '/sms_mfa',
          });
        }
        changes.smsMfaEnabled = enabled;
        if (sms.preferred) preferred = 'SMS_MFA';
        else if (preferred === 'SMS_MFA') preferred = null;
      }
      if (softwareToken) {
        const enabled = softwareToken.enabled || softwareToken.preferred;
        if (enabled && !record.totpSecret) {
          throw identityError('InvalidParameterException', 'User has not verified software token mfa', {
            pointer: '/software_token_mfa',
          });
        }
        changes.softwareTokenMfaEnabled = enabled;
        if (softwareToken.preferred) preferred = 'SOFTWARE_TOKEN_MFA';
        else if (preferred === 'SOFTWARE_TOKEN_MFA') preferred = null;
      }
      changes.preferredMfa = preferred;
      const updated = await services.users.update(record.id, changes);
      return sessionUserOf(updated, await services.rolesOf(updated), request.principal!);
    },
  );

  router.post(
    '/software-token/associate',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Starts authenticator-app enrolment: a new TOTP secret and its otpauth:// URI (for a QR code).',
        description: 'The secret takes effect once a code from it is verified. Requires the current password.',
        tags,
        security,
        body: associateSoftwareTokenBody,
        response: { 200: associateSoftwareTokenResponse },
      },
    },
    async (request) => {
      const record = await callerRecord(request.principal!);
      await confirmPassword(record, request.body.password, request.ip);
      const secret = newTotpSecret();
      await services.users.update(record.id, { totpPendingSecret: secret });
      return {
        secret_code: secret,
        otpauth_uri: otpauthUri(secret, services.options.totpIssuer ?? 'Atrium', record.username),
      };
    },
  );

  router.post(
    '/software-token/verify',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Finishes enrolment with a code from the app; the new secret replaces any earlier one.',
        description: 'Enable or prefer it afterwards with PUT mfa-preference.',
        tags,
        security,
        body: verifySoftwareTokenBody,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const record = await callerRecord(request.principal!);
      if (await services.throttle.lockedUntil(record.username, request.ip))
        throw identityError('NotAuthorizedException', PASSWORD_ATTEMPTS_EXCEEDED);
      if (!record.totpPendingSecret) {
        throw identityError(
          'InvalidParameterException',
          'No software token is being associated; call software-token/associate first.',
        );
      }
      const step = matchTotpStep(record.totpPendingSecret, request.body.code, services.clock.now());
      if (step === null) {
        await services.throttle.recordFailure(record.username, request.ip);
        throw identityError('CodeMismatchException', 'Code mismatch and fail enable Software Token MFA');
      }
      // The enrolment code counts as used: it cannot then sign in.
      await services.users.update(record.id, {
        totpSecret: record.totpPendingSecret,
        totpPendingSecret: null,
        totpLastUsedStep: step,
      });
      return { status: 'SUCCESS' as const };
    },
  );
}
