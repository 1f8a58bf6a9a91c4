import { and, eq, isNull, lt, or } from 'drizzle-orm';
import {
  ATTEMPT_LIMIT,
  INCORRECT_CREDENTIALS,
  MFA_METHOD_MISSING,
  PASSWORD_ATTEMPTS_EXCEEDED,
  PASSWORD_RESET_REQUIRED,
  SESSION_EXPIRED,
  identityError,
} from './identity-errors.js';
import type { IdentityServices } from './identity-services.js';
import { readMfaSettings, readPasswordPolicy } from './identity-settings.js';
import { passwordPolicyViolations } from './password-policy.js';
import { CHALLENGE_LIFETIME_SECONDS, type ChallengeLookup } from './sign-in-challenges.js';
import { user as userTable } from './tables.js';
import { matchTotpStep } from './totp.js';
import { CODE_VALIDITY_MINUTES } from './verification-codes.js';
import { maskEmail, maskPhoneNumber, normalizeUsername, type UserRecord } from './user-store.js';

/**
 * Password sign-in and its challenges, with the outcomes of the spec: authenticated,
 * NEW_PASSWORD_REQUIRED, SMS_MFA, SOFTWARE_TOKEN_MFA, PasswordResetRequiredException; plus forgot
 * password, refresh and sign-out. Every failed password or code counts against the account's
 * lockout; an unknown username is treated exactly like a wrong password.
 */
export const FORGOT_PASSWORD_PER_HOUR = 5;
export const CODE_DELIVERIES_PER_HOUR = 10;
export const RESENDS_PER_CHALLENGE = 3;
/** Wall-clock floor of a forgot-password answer, so that its time does not tell whether a code went out. */
export const FORGOT_PASSWORD_MINIMUM_MS = 150;

export interface AuthenticationResult {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  session_expires_at: string;
}

export interface CodeDeliveryDetails {
  delivery_medium: 'SMS' | 'EMAIL';
  destination: string;
  attribute_name: 'phone_number' | 'email';
}

export type SignInOutcome =
  | { status: 'AUTHENTICATED'; authentication_result: AuthenticationResult }
  | {
      status: 'NEW_PASSWORD_REQUIRED';
      session: string;
      expires_in: number;
      challenge_parameters: {
        user_attributes: { email: string; name: string; phone_number: string | null };
        required_attributes: string[];
      };
    }
  | { status: 'SMS_MFA'; session: string; expires_in: number; challenge_parameters: CodeDeliveryDetails }
  | { status: 'SOFTWARE_TOKEN_MFA'; session: string; expires_in: number; challenge_parameters: Record<string, never> };

type MfaChoice = 'none' | 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA';

export class SignInFlow {
  /**
   * `source` is the caller's address: failures lock an account for that source first
   * (sign-in-throttle.ts). Routes bind it per request with `at(request.ip)`.
   */
  constructor(
    private readonly services: IdentityServices,
    private readonly source = 'internal',
  ) {}

  /** This flow for a request from `source` (its IP address). */
  at(source: string): SignInFlow {
    return new SignInFlow(this.services, source);
  }

  private get clock() {
    return this.services.clock;
  }

  // ── Password ────────────────────────────────────────────────────────────────────────────────

  async signIn(rawUsername: string, password: string): Promise<SignInOutcome> {
    void this.services.housekeeping.nudge();
    const username = normalizeUsername(rawUsername);
    await this.refuseWhileLocked(username);
    let found = await this.services.users.findByUsername(username);
    if (!found && this.services.options.migrateUnknownUser) {
      // The legacy-migration hook runs once; sign-in then tries again once.
      if (await this.services.options.migrateUnknownUser({ username, password })) {
        found = await this.services.users.findByUsername(username);
      }
    }
    const passwordMatches = found
      ? await this.services.hasher.verify(found.passwordHash, password)
      : await this.services.hasher.verifyDummy(password);
    if (!found || !passwordMatches) {
      await this.services.throttle.recordFailure(username, this.source);
      throw identityError('NotAuthorizedException', INCORRECT_CREDENTIALS);
    }
    if (!found.enabled) throw identityError('NotAuthorizedException', 'User is disabled.');
    if (found.status === 'RESET_REQUIRED') {
      const delivery = await this.sendPasswordResetCode(found).catch(() => null);
      throw identityError('PasswordResetRequiredException', PASSWORD_RESET_REQUIRED, {
        meta: delivery ? { code_delivery_details: delivery } : undefined,
      });
    }
    if (found.status === 'FORCE_CHANGE_PASSWORD') {
      const { temporary_password_validity_days: days } = await readPasswordPolicy(this.services.db);
      const setAt = found.passwordChangedAt ?? found.createdAt;
      if (setAt.getTime() + days * 24 * 60 * 60 * 1000 <= this.clock.now().getTime()) {
        throw identityError(
          'NotAuthorizedException',
          'Temporary password has expired and must be reset by an administrator.',
        );
      }
      const { session } = await this.services.challenges.open(found.id, 'NEW_PASSWORD_REQUIRED');
      return {
        status: 'NEW_PASSWORD_REQUIRED',
        session,
        expires_in: CHALLENGE_LIFETIME_SECONDS,
        challenge_parameters: {
          user_attributes: { email: found.email, name: found.name, phone_number: found.phoneNumber },
          required_attributes: [],
        },
      };
    }
    return this.afterFirstFactor(found);
  }

  /** Answers NEW_PASSWORD_REQUIRED; the second factor still follows. */
  async answerNewPassword(rawUsername: string, session: string, newPassword: string): Promise<SignInOutcome> {
    const username = normalizeUsername(rawUsername);
    const found = await this.services.users.findByUsername(username);
    const challenge = this.openChallenge(
      await this.services.challenges.find(session, found?.id, 'NEW_PASSWORD_REQUIRED'),
    );
    const policy = await readPasswordPolicy(this.services.db);
    this.enforcePolicy(newPassword, policy);
    if (await this.services.users.reusesPassword(found!, newPassword, Math.max(1, policy.password_history_size))) {
      throw identityError('InvalidParameterException', 'Password has previously been used.', {
        pointer: '/new_password',
      });
    }
    if (!(await this.services.challenges.complete(challenge.id)))
      throw identityError('NotAuthorizedException', 'Invalid session for the user.');
    const updated = await this.services.users.setPassword(
      found!,
      newPassword,
      'CONFIRMED',
      policy.password_history_size,
    );
    return this.afterFirstFactor(updated);
  }

  // ── Second factor ───────────────────────────────────────────────────────────────────────────

  private async chooseMfa(record: UserRecord): Promise<MfaChoice> {
    const { mfa_configuration } = await readMfaSettings(this.services.db);
    if (mfa_configuration === 'off') return 'none';
    const totpUsable = record.softwareTokenMfaEnabled && !!record.totpSecret;
    const smsUsable = record.smsMfaEnabled && !!record.phoneNumber;
    if (totpUsable && smsUsable) {
      // Two methods and none preferred is the provider's SELECT_MFA_TYPE, which is answered with SMS.
      return record.preferredMfa === 'SOFTWARE_TOKEN_MFA' ? 'SOFTWARE_TOKEN_MFA' : 'SMS_MFA';
    }
    if (totpUsable) return 'SOFTWARE_TOKEN_MFA';
    if (smsUsable) return 'SMS_MFA';
    const wantsMfa = record.softwareTokenMfaEnabled || record.smsMfaEnabled;
    if (mfa_configuration === 'optional' && !wantsMfa) return 'none';
    // MFA is required (by the setting or the user's own choice) but no enabled method can be used.
    if (record.phoneNumber) return 'SMS_MFA';
    if (record.totpSecret) return 'SOFTWARE_TOKEN_MFA';
    throw identityError('MFAMethodNotFoundException', MFA_METHOD_MISSING);
  }

  private async afterFirstFactor(record: UserRecord): Promise<SignInOutcome> {
    const choice = await this.chooseMfa(record);
    if (choice === 'none') return this.complete(record);
    const { session, challenge } = await this.services.challenges.open(record.id, choice);
    if (choice === 'SOFTWARE_TOKEN_MFA') {
      return {
        status: 'SOFTWARE_TOKEN_MFA',
        session,
        expires_in: CHALLENGE_LIFETIME_SECONDS,
        challenge_parameters: {},
      };
    }
    const delivery = await this.sendSmsCode(record, challenge.id);
    return { status: 'SMS_MFA', session, expires_in: CHALLENGE_LIFETIME_SECONDS, challenge_parameters: delivery };
  }

  async answerMfa(rawUsername: string, session: string, code: string): Promise<SignInOutcome> {
    const username = normalizeUsername(rawUsername);
    await this.refuseWhileLocked(username);
    const found = await this.services.users.findByUsername(username);
    const challenge = this.openChallenge(
      await this.services.challenges.find(session, found?.id, ['SMS_MFA', 'SOFTWARE_TOKEN_MFA']),
    );
    const record = found!;
    if (challenge.challengeName === 'SOFTWARE_TOKEN_MFA') {
      await this.acceptTotp(record, code);
    } else {
      const check = await this.services.codes.check(record.id, 'sms-mfa', code, challenge.id);
      if (check === 'mismatch') {
        await this.services.throttle.recordFailure(username, this.source);
        throw identityError('CodeMismatchException', 'Invalid code or auth state for the user.');
      }
      if (check === 'expired')
        throw identityError('ExpiredCodeException', 'Invalid code provided, please request a code again.');
    }
    if (!(await this.services.challenges.complete(challenge.id)))
      throw identityError('NotAuthorizedException', 'Invalid session for the user.');
    return this.complete(record);
  }

  /** Checks a TOTP code and records its time step, so that the same code cannot be used again. */
  async acceptTotp(record: UserRecord, code: string, secret = record.totpSecret): Promise<number> {
    const step = secret ? matchTotpStep(secret, code, this.clock.now()) : null;
    if (step === null) {
      await this.services.throttle.recordFailure(record.username, this.source);
      throw identityError('CodeMismatchException', 'Invalid code received for user');
    }
    const claimed = await this.services.db
      .update(userTable)
      .set({ totpLastUsedStep: step })
      .where(
        and(eq(userTable.id, record.id), or(isNull(userTable.totpLastUsedStep), lt(userTable.totpLastUsedStep, step))),
      )
      .returning({ id: userTable.id });
    if (claimed.length === 0) {
      await this.services.throttle.recordFailure(record.username, this.source);
      throw identityError('ExpiredCodeException', 'Your software token has already been used once.');
    }
    return step;
  }

  async resendMfaCode(rawUsername: string, session: string): Promise<CodeDeliveryDetails> {
    const found = await this.services.users.findByUsername(normalizeUsername(rawUsername));
    const challenge = this.openChallenge(await this.services.challenges.find(session, found?.id, 'SMS_MFA'));
    if ((await this.services.challenges.countResend(challenge.id)) > RESENDS_PER_CHALLENGE) {
      throw identityError('LimitExceededException', ATTEMPT_LIMIT);
    }
    return this.sendSmsCode(found!, challenge.id);
  }

  private async sendSmsCode(record: UserRecord, challengeId: string): Promise<CodeDeliveryDetails> {
    await this.limitDeliveries(record.username);
    const code = await this.services.codes.issue(record.id, 'sms-mfa', challengeId);
    const phone = record.phoneNumber!;
    await this.services.codeSender.send({
      channel: 'sms',
      destination: phone,
      username: record.username,
      purpose: 'sms-mfa',
      code,
      validMinutes: CODE_VALIDITY_MINUTES,
    });
    return { delivery_medium: 'SMS', destination: maskPhoneNumber(phone), attribute_name: 'phone_number' };
  }

  // ── Forgotten password ──────────────────────────────────────────────────────────────────────

  /** Sends a reset code by e-mail. The answer is the same whether or not the username exists. */
  async forgotPassword(rawUsername: string): Promise<CodeDeliveryDetails> {
    const started = performance.now();
    const username = normalizeUsername(rawUsername);
    const limit = await this.services.rateLimiter.consume(`forgot-password:${username}`, FORGOT_PASSWORD_PER_HOUR);
    if (!limit.allowed) {
      throw identityError('LimitExceededException', ATTEMPT_LIMIT, {
        headers: { 'retry-after': String(limit.retryAfterSeconds) },
      });
    }
    const found = await this.services.users.findByUsername(username);
    const delivery: CodeDeliveryDetails = found?.enabled
      ? await this.sendPasswordResetCode(found)
      : { delivery_medium: 'EMAIL', destination: maskEmail(username), attribute_name: 'email' };
    // Sending a code takes longer than not sending one: answer both after the same floor.
    const remaining = FORGOT_PASSWORD_MINIMUM_MS - (performance.now() - started);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
    return delivery;
  }

  private async sendPasswordResetCode(record: UserRecord): Promise<CodeDeliveryDetails> {
    await this.limitDeliveries(record.username);
    const code = await this.services.codes.issue(record.id, 'forgot-password');
    await this.services.codeSender.send({
      channel: 'email',
      destination: record.email,
      username: record.username,
      purpose: 'forgot-password',
      code,
      validMinutes: CODE_VALIDITY_MINUTES,
    });
    return { delivery_medium: 'EMAIL', destination: maskEmail(record.email), attribute_name: 'email' };
  }

  /**
   * Sets a new password with the e-mailed code. It signs nobody in (the next sign-in still asks for
   * the second factor) and ends every session of the account.
   */
  async confirmForgotPassword(rawUsername: string, code: string, newPassword: string): Promise<void> {
    const username = normalizeUsername(rawUsername);
    const policy = await readPasswordPolicy(this.services.db);
    this.enforcePolicy(newPassword, policy);
    await this.refuseWhileLocked(username);
    const found = await this.services.users.findByUsername(username);
    const check = found?.enabled
      ? await this.services.codes.peek(found.id, 'forgot-password', code)
      : { outcome: 'mismatch' as const };
    if (check.outcome !== 'valid') {
      if (check.outcome === 'expired')
        throw identityError('ExpiredCodeException', 'Invalid code provided, please request a code again.');
      await this.services.throttle.recordFailure(username, this.source);
      throw identityError('CodeMismatchException', 'Invalid verification code provided, please try again.');
    }
    const record = found!;
    // Only a holder of the code learns whether a password was used before; the code stays usable.
    if (await this.services.users.reusesPassword(record, newPassword, policy.password_history_size)) {
      throw identityError('InvalidParameterException', 'Password has previously been used.', { pointer: '/password' });
    }
    if (!(await this.services.codes.consume(check.codeId))) {
      throw identityError('ExpiredCodeException', 'Invalid code provided, please request a code again.');
    }
    await this.services.users.setPassword(record, newPassword, 'CONFIRMED', policy.password_history_size);
    await this.endAllSessions(record.id, 'password-change');
    await this.services.throttle.recordSuccess(username, this.source);
  }

  // ── Tokens ──────────────────────────────────────────────────────────────────────────────────

  /** Issues the tokens of a finished sign-in (password and factors, or an external provider). */
  async complete(record: UserRecord): Promise<SignInOutcome> {
    const started = await this.services.sessions.start(record.id);
    const access = await this.services.accessTokens.issue({
      userId: record.id,
      username: record.username,
      sessionId: started.sessionId,
    });
    await this.services.throttle.recordSuccess(record.username, this.source);
    return {
      status: 'AUTHENTICATED',
      authentication_result: {
        access_token: access.token,
        refresh_token: started.refreshToken,
        token_type: 'Bearer',
        expires_in: access.expiresIn,
        session_expires_at: started.expiresAt.toISOString(),
      },
    };
  }

  async refresh(refreshToken: string): Promise<AuthenticationResult> {
    const rotated = await this.services.sessions.rotate(refreshToken);
    if (rotated.outcome !== 'rotated') {
      const message =
        rotated.outcome === 'expired'
          ? 'Refresh Token has expired'
          : rotated.outcome === 'invalid'
            ? 'Invalid Refresh Token'
            : 'Refresh Token has been revoked';
      throw identityError('NotAuthorizedException', message);
    }
    const record = await this.services.users.findById(rotated.userId);
    if (!record?.enabled) {
      await this.services.sessions.revoke(rotated.sessionId, 'admin');
      throw identityError('NotAuthorizedException', 'User is disabled.');
    }
    const access = await this.services.accessTokens.issue({
      userId: record.id,
      username: record.username,
      sessionId: rotated.sessionId,
    });
    return {
      access_token: access.token,
      refresh_token: rotated.refreshToken,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      session_expires_at: rotated.expiresAt.toISOString(),
    };
  }

  /** Ends the session a refresh token belongs to. Unknown tokens are ignored: signing out twice is fine. */
  async signOut(refreshToken: string): Promise<void> {
    const session = await this.services.sessions.sessionOf(refreshToken);
    if (session) await this.services.sessions.revoke(session.sessionId, 'sign-out');
  }

  /** Ends every session of the user and refuses every access token issued so far. */
  async endAllSessions(userId: string, reason: 'global-sign-out' | 'password-change' | 'admin'): Promise<void> {
    await this.services.sessions.revokeAllOf(userId, reason);
    // Whole seconds, like a token's iat: a token issued later in the same second stays valid.
    const now = this.clock.now().getTime();
    await this.services.users.update(userId, { tokensValidAfter: new Date(Math.floor(now / 1000) * 1000) });
  }

  // ── Helpers ─────────────────────────────────────────────────────────────────────────────────

  private async refuseWhileLocked(username: string): Promise<void> {
    const until = await this.services.throttle.lockedUntil(username, this.source);
    if (!until) return;
    const retryAfter = Math.max(1, Math.ceil((until.getTime() - this.clock.now().getTime()) / 1000));
    throw identityError('NotAuthorizedException', PASSWORD_ATTEMPTS_EXCEEDED, {
      headers: { 'retry-after': String(retryAfter) },
      meta: { retry_after_seconds: retryAfter },
    });
  }

  private async limitDeliveries(username: string): Promise<void> {
    const limit = await this.services.rateLimiter.consume(`code-delivery:${username}`, CODE_DELIVERIES_PER_HOUR);
    if (!limit.allowed) {
      throw identityError('LimitExceededException', ATTEMPT_LIMIT, {
        headers: { 'retry-after': String(limit.retryAfterSeconds) },
      });
    }
  }

  private openChallenge(lookup: ChallengeLookup) {
    if (lookup.outcome !== 'open') {
      throw identityError(
        'NotAuthorizedException',
        lookup.outcome === 'expired' ? SESSION_EXPIRED : 'Invalid session for the user.',
      );
    }
    return lookup.challenge;
  }

  enforcePolicy(password: string, policy: Awaited<ReturnType<typeof readPasswordPolicy>>): void {
    const problems = passwordPolicyViolations(password, policy);
    if (problems.length > 0) {
      throw identityError('InvalidParameterException', `Password does not conform to policy: ${problems.join('; ')}`);
    }
  }
}
