import { ApiError, resourceDocument, serializeDocument, z, type AtriumRouter } from '@atrium/sdk/server';
import type { CodePurpose } from '../code-sender.js';
import type { IdentityServices } from '../identity-services.js';
import type { UserRecord } from '../user-store.js';
import { CODE_VALIDITY_MINUTES } from '../verification-codes.js';
import { emailAddress, personName, phoneNumber, pictureUrl } from './attributes.js';
import { attributeProblem, loadUser, requireMatchingId, userResourceFor } from './resources.js';

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];

const PURPOSE: Record<'email' | 'phone_number', CodePurpose> = {
  email: 'verify-email',
  phone_number: 'verify-phone-number',
};

/** GET/PATCH users/me and POST users/me/verify-attribute: the caller's own profile. */
export function meRoutes(router: AtriumRouter, services: IdentityServices) {
  const { db } = services;
  const userResource = userResourceFor(db);

  /** Sends a code to the new address or number; verify-attribute checks it. */
  const sendVerificationCode = async (record: UserRecord, attribute: 'email' | 'phone_number') => {
    const destination = attribute === 'email' ? record.email : record.phoneNumber;
    if (!destination) return;
    const limit = await services.rateLimiter.consume(`verify-attribute:${record.id}`, 10);
    if (!limit.allowed) {
      throw new ApiError(429, 'Attempt limit exceeded, please try after some time.', {
        code: 'LimitExceededException',
        headers: { 'retry-after': String(limit.retryAfterSeconds) },
      });
    }
    const code = await services.codes.issue(record.id, PURPOSE[attribute]);
    await services.codeSender.send({
      channel: attribute === 'email' ? 'email' : 'sms',
      destination,
      username: record.username,
      purpose: PURPOSE[attribute],
      code,
      validMinutes: CODE_VALIDITY_MINUTES,
    });
  };

  router.get(
    '/users/me',
    {
      config: { jsonapi: true, access: 'authenticated' },
      schema: { summary: 'The caller as a user resource, with their groups.', tags, security },
    },
    async (request) => serializeDocument(userResource, await loadUser(db, request.principal!.subject)),
  );

  router.patch(
    '/users/me',
    {
      config: { jsonapi: true, access: 'authenticated' },
      schema: {
        summary: "Changes the caller's name, e-mail, phone number or picture (type user, id, attributes).",
        description:
          'A new e-mail address or phone number is unverified until the code sent to it is confirmed with ' +
          'users/me/verify-attribute; removing the phone number turns SMS MFA off. data.id must be the caller.',
        tags,
        security,
        body: resourceDocument(
          'user',
          {
            name: personName.optional(),
            email: emailAddress.optional(),
            phone_number: phoneNumber.nullable().optional(),
            picture: pictureUrl.nullable().optional(),
          },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      const me = await loadUser(db, request.principal!.subject);
      requireMatchingId(request.body.data.id, me.id);
      const a = request.body.data.attributes ?? {};
      const changes: Partial<UserRecord> = {};
      if (a.name !== undefined) changes.name = a.name;
      if (a.picture !== undefined) changes.picture = a.picture;
      const emailChanged = a.email !== undefined && a.email !== me.email;
      if (emailChanged) {
        changes.email = a.email!;
        changes.emailVerified = false;
      }
      const phoneChanged = a.phone_number !== undefined && a.phone_number !== me.phoneNumber;
      if (phoneChanged) {
        changes.phoneNumber = a.phone_number!;
        changes.phoneNumberVerified = false;
        // SMS codes would go to a number nobody has confirmed: SMS MFA waits for verification.
        changes.smsMfaEnabled = false;
        if (me.preferredMfa === 'SMS_MFA') changes.preferredMfa = null;
      }
      const updated = await services.users.update(me.id, changes);
      if (emailChanged) await sendVerificationCode(updated, 'email');
      if (phoneChanged && updated.phoneNumber) await sendVerificationCode(updated, 'phone_number');
      return serializeDocument(userResource, { ...updated, groupIds: me.groupIds });
    },
  );

  router.post(
    '/users/me/verify-attribute',
    {
      config: { jsonapi: true, access: 'authenticated' },
      schema: {
        summary: "Verifies the caller's e-mail address or phone number with the code sent to it.",
        description:
          'attribute is email or phone_number. Without verification_code a new code is sent (202). A wrong code is ' +
          '400 CodeMismatchException, an old or used one 400 ExpiredCodeException.',
        tags,
        security,
        body: resourceDocument('attribute-verification', {
          attribute: z.enum(['email', 'phone_number']),
          verification_code: z
            .string()
            .trim()
            .regex(/^\d{6}$/, 'The code has six digits.')
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const me = await loadUser(db, request.principal!.subject);
      const attributes = request.body.data.attributes;
      if (!attributes?.attribute) throw attributeProblem('attribute', 'This field is required.', 'required');
      const attribute = attributes.attribute;
      if (attribute === 'phone_number' && !me.phoneNumber) {
        throw attributeProblem('attribute', 'You have no phone number to verify.', 'InvalidParameterException');
      }
      if (!attributes.verification_code) {
        await sendVerificationCode(me, attribute);
        reply.status(202);
        return { jsonapi: { version: '1.1' as const }, meta: { code_sent: true } };
      }
      if (await services.throttle.lockedUntil(me.username, request.ip)) {
        throw attributeProblem('verification_code', 'Password attempts exceeded', 'NotAuthorizedException');
      }
      const outcome = await services.codes.check(me.id, PURPOSE[attribute], attributes.verification_code);
      if (outcome === 'mismatch') {
        await services.throttle.recordFailure(me.username, request.ip);
        throw attributeProblem(
          'verification_code',
          'Invalid verification code provided, please try again.',
          'CodeMismatchException',
        );
      }
      if (outcome === 'expired') {
        throw attributeProblem(
          'verification_code',
          'Invalid code provided, please request a code again.',
          'ExpiredCodeException',
        );
      }
      const updated = await services.users.update(
        me.id,
        attribute === 'email' ? { emailVerified: true } : { phoneNumberVerified: true },
      );
      return serializeDocument(userResource, { ...updated, groupIds: me.groupIds });
    },
  );
}
