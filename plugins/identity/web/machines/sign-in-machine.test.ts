import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { IdentityFailure } from '../session/identity-call-error.js';
import type { AuthenticationResult } from '../session/session-client.js';
import { SIGN_IN_MESSAGES } from '../sign-in-messages.js';
import {
  signInMachine,
  type CodeDeliveryDetails,
  type NextStep,
  type ProviderCallback,
  type SignInInput,
  type SignInResponse,
} from './sign-in-machine.js';

/**
 * Every path of the sign-in machine, headless: the identity calls are scripted actors that record
 * what they were asked, so each test states what the service answers and checks where the machine
 * goes and what it asked for.
 */
const tokens: AuthenticationResult = {
  access_token: 'access',
  refresh_token: 'refresh',
  token_type: 'Bearer',
  expires_in: 3600,
  session_expires_at: '2026-03-01T17:00:00.000Z',
};
const authenticated: SignInResponse = { status: 'AUTHENTICATED', authentication_result: tokens };
const smsChallenge: SignInResponse = {
  status: 'SMS_MFA',
  session: 'sms-session',
  expires_in: 180,
  challenge_parameters: { delivery_medium: 'SMS', destination: '+*******0123', attribute_name: 'phone_number' },
};
const totpChallenge: SignInResponse = {
  status: 'SOFTWARE_TOKEN_MFA',
  session: 'totp-session',
  expires_in: 180,
  challenge_parameters: {},
};
const newPasswordChallenge: SignInResponse = {
  status: 'NEW_PASSWORD_REQUIRED',
  session: 'np-session',
  expires_in: 180,
  challenge_parameters: {
    user_attributes: { email: 'agent@agency.test', name: 'Alex Agent', phone_number: null },
    required_attributes: [],
  },
};

const failure = (code: string | undefined, message: string, body: Record<string, unknown> = {}): IdentityFailure => ({
  code,
  message,
  status: code === 'UnknownError' ? 500 : 400,
  body: { code, detail: message, ...body },
});

type Answer<T> = T | IdentityFailure | Error;

/** Scripted answers, taken in order; the last one repeats. */
function script<I, O>(answers: Answer<O>[]) {
  const calls: I[] = [];
  const logic = fromPromise<O, I>(async ({ input }) => {
    calls.push(input);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (
      answer instanceof Error ||
      (typeof answer === 'object' && answer !== null && 'status' in answer && 'body' in answer)
    )
      throw answer;
    return answer as O;
  });
  return { logic, calls };
}

interface Scripts {
  signIn?: Answer<SignInResponse>[];
  migrate?: Answer<boolean>[];
  newPassword?: Answer<SignInResponse>[];
  mfa?: Answer<SignInResponse>[];
  resend?: Answer<CodeDeliveryDetails>[];
  provider?: Answer<SignInResponse>[];
  complete?: Answer<NextStep>[];
}

function start(scripts: Scripts, input: SignInInput = {}) {
  const signIn = script<{ username: string; password: string }, SignInResponse>(scripts.signIn ?? [authenticated]);
  const migrate = script<{ username: string; password: string }, boolean>(scripts.migrate ?? [false]);
  const newPassword = script<{ username: string; session: string; password: string }, SignInResponse>(
    scripts.newPassword ?? [authenticated],
  );
  const mfa = script<{ username: string; session: string; code: string }, SignInResponse>(
    scripts.mfa ?? [authenticated],
  );
  const resend = script<{ username: string; session: string }, CodeDeliveryDetails>(
    scripts.resend ?? [{ delivery_medium: 'SMS', destination: '+*******0123', attribute_name: 'phone_number' }],
  );
  const provider = script<ProviderCallback, SignInResponse>(scripts.provider ?? [authenticated]);
  const complete = script<AuthenticationResult, NextStep>(scripts.complete ?? ['continue']);
  const actor = createActor(
    signInMachine.provide({
      actors: {
        signIn: signIn.logic,
        migrateLegacyContact: migrate.logic,
        answerNewPassword: newPassword.logic,
        answerMfa: mfa.logic,
        resendCode: resend.logic,
        signInWithProvider: provider.logic,
        completeSignIn: complete.logic,
      },
    }),
    { input },
  );
  const states: string[] = [];
  actor.subscribe((snapshot) => {
    const value = String(snapshot.value);
    if (states.at(-1) !== value) states.push(value);
  });
  actor.start();
  const settle = (...values: string[]) =>
    waitFor(actor, (snapshot) => values.some((value) => snapshot.matches(value as never)));
  return { actor, states, settle, calls: { signIn, migrate, newPassword, mfa, resend, provider, complete } };
}

const submit = (username = 'admin@atrium.test', password = 'Atrium!demo1') => ({
  type: 'SUBMIT' as const,
  username,
  password,
});

describe('sign-in machine', () => {
  it('starts idle on the login page', () => {
    const { actor } = start({});
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('authenticated: stores the session and finishes signed in', async () => {
    const { actor, states, settle, calls } = start({ signIn: [authenticated], complete: ['continue'] });
    actor.send(submit(' admin@atrium.test ', 'Atrium!demo1'));
    const done = await settle('signedIn');
    expect(calls.signIn.calls).toEqual([{ username: 'admin@atrium.test', password: 'Atrium!demo1' }]);
    expect(calls.complete.calls).toEqual([tokens]);
    expect(done.context.next).toBe('continue');
    expect(done.status).toBe('done');
    expect(done.context.password).toBe('Atrium!demo1');
    expect(states).toEqual(['idle', 'signingIn', 'completing', 'signedIn']);
  });

  it.each<NextStep>(['chooseRole', 'noRoles'])('authenticated with the role step %s', async (next) => {
    const { actor, settle } = start({ complete: [next] });
    actor.send(submit('multi@atrium.test'));
    expect((await settle('signedIn')).context.next).toBe(next);
  });

  it("authenticated but the session cannot be stored: 'something went wrong', back to login", async () => {
    const { actor, settle } = start({ complete: [new Error('session call failed')] });
    actor.send(submit());
    const failed = await settle('failed');
    expect(failed.context.error).toBe(SIGN_IN_MESSAGES.somethingWentWrong);
    expect(failed.status).toBe('done');
  });

  it('NEW_PASSWORD_REQUIRED: asks for a new password, answers the challenge, then signs in', async () => {
    const { actor, states, settle, calls } = start({ signIn: [newPasswordChallenge], newPassword: [authenticated] });
    actor.send(submit('agent@agency.test', 'Temporary-Pass1'));
    const asked = await settle('newPasswordRequired');
    expect(asked.context.newPassword).toEqual({
      session: 'np-session',
      userAttributes: { email: 'agent@agency.test', name: 'Alex Agent', phone_number: null },
      requiredAttributes: [],
    });
    expect(asked.context.password).toBe('');
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'Agent-Password-7' });
    await settle('signedIn');
    expect(calls.newPassword.calls).toEqual([
      { username: 'agent@agency.test', session: 'np-session', password: 'Agent-Password-7' },
    ]);
    expect(states).toEqual([
      'idle',
      'signingIn',
      'newPasswordRequired',
      'answeringNewPassword',
      'completing',
      'signedIn',
    ]);
  });

  it('NEW_PASSWORD_REQUIRED: a refused password stays on the page with the reason', async () => {
    const { actor, settle } = start({
      signIn: [newPasswordChallenge],
      newPassword: [failure('InvalidParameterException', 'Password has previously been used.'), authenticated],
    });
    actor.send(submit('agent@agency.test', 'Temporary-Pass1'));
    await settle('newPasswordRequired');
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'Temporary-Pass1' });
    await waitFor(actor, (s) => s.matches('newPasswordRequired') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Password has previously been used.');
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'Agent-Password-7' });
    await settle('signedIn');
  });

  it('NEW_PASSWORD_REQUIRED followed by MFA: the second factor still comes', async () => {
    const { actor, settle } = start({
      signIn: [newPasswordChallenge],
      newPassword: [smsChallenge],
      mfa: [authenticated],
    });
    actor.send(submit('sms@atrium.test', 'Temporary-Pass1'));
    await settle('newPasswordRequired');
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'Sms-Password-77' });
    const mfa = await settle('mfaRequired');
    expect(mfa.context.mfa).toEqual({ session: 'sms-session', medium: 'SMS', destination: '+*******0123' });
  });

  it('SMS_MFA: asks for the texted code, can resend it, then signs in', async () => {
    const { actor, states, settle, calls } = start({
      signIn: [smsChallenge],
      mfa: [failure('CodeMismatchException', 'Invalid code received for user'), authenticated],
      resend: [{ delivery_medium: 'SMS', destination: '+*******0124', attribute_name: 'phone_number' }],
    });
    actor.send(submit('sms@atrium.test'));
    expect((await settle('mfaRequired')).context.mfa).toEqual({
      session: 'sms-session',
      medium: 'SMS',
      destination: '+*******0123',
    });
    actor.send({ type: 'SUBMIT_CODE', code: '000000' });
    await waitFor(actor, (s) => s.matches('mfaRequired') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Invalid code received for user');
    actor.send({ type: 'RESEND_CODE' });
    await waitFor(actor, (s) => s.matches('mfaRequired') && s.context.mfa?.destination === '+*******0124');
    expect(calls.resend.calls).toEqual([{ username: 'sms@atrium.test', session: 'sms-session' }]);
    actor.send({ type: 'SUBMIT_CODE', code: ' 123456 ' });
    await settle('signedIn');
    expect(calls.mfa.calls.at(-1)).toEqual({ username: 'sms@atrium.test', session: 'sms-session', code: '123456' });
    expect(states).toContain('resendingCode');
  });

  it('SOFTWARE_TOKEN_MFA: asks for the authenticator code (no resend) and signs in', async () => {
    const { actor, settle, calls } = start({ signIn: [totpChallenge], mfa: [authenticated] });
    actor.send(submit('mfa@atrium.test'));
    expect((await settle('mfaRequired')).context.mfa).toEqual({
      session: 'totp-session',
      medium: 'SOFTWARE_TOKEN',
      destination: '',
    });
    actor.send({ type: 'RESEND_CODE' });
    expect(actor.getSnapshot().value).toBe('mfaRequired');
    actor.send({ type: 'SUBMIT_CODE', code: '287082' });
    await settle('signedIn');
    expect(calls.resend.calls).toEqual([]);
    expect(calls.mfa.calls).toEqual([{ username: 'mfa@atrium.test', session: 'totp-session', code: '287082' }]);
  });

  it('MFA page: starts in mfaRequired from the URL and answers the challenge', async () => {
    const { actor, settle, calls } = start(
      { mfa: [authenticated] },
      {
        start: {
          kind: 'mfa',
          username: 'mfa@atrium.test',
          challenge: { session: 's1', medium: 'SOFTWARE_TOKEN', destination: '' },
        },
      },
    );
    expect(actor.getSnapshot().value).toBe('mfaRequired');
    actor.send({ type: 'SUBMIT_CODE', code: '111111' });
    await settle('signedIn');
    expect(calls.mfa.calls).toEqual([{ username: 'mfa@atrium.test', session: 's1', code: '111111' }]);
  });

  it('an expired MFA challenge says so and can go back to the password step', async () => {
    const { actor } = start(
      { mfa: [failure('NotAuthorizedException', 'Invalid session for the user, session is expired.')] },
      {
        start: {
          kind: 'mfa',
          username: 'sms@atrium.test',
          challenge: { session: 'old', medium: 'SMS', destination: '+*******0123' },
        },
      },
    );
    actor.send({ type: 'SUBMIT_CODE', code: '123456' });
    await waitFor(actor, (s) => s.matches('mfaRequired') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Invalid session for the user, session is expired.');
    actor.send({ type: 'RESTART' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.username).toBe('sms@atrium.test');
    expect(actor.getSnapshot().context.mfa).toBeNull();
  });

  it('reset-password page: starts in newPasswordRequired from the route state', async () => {
    const challenge = {
      session: 'np',
      userAttributes: { email: 'a@b.test', name: 'A', phone_number: null },
      requiredAttributes: [],
    };
    const { actor, settle } = start({}, { start: { kind: 'newPassword', username: 'a@b.test', challenge } });
    expect(actor.getSnapshot().value).toBe('newPasswordRequired');
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'Brand-New-Pass1' });
    await settle('signedIn');
  });

  it('PASSWORD_RESET_REQUIRED: goes to force-reset-password with the reason and where the code went', async () => {
    const delivery = { delivery_medium: 'EMAIL', destination: 'a***@atrium.test', attribute_name: 'email' };
    const { actor, settle } = start({
      signIn: [
        failure('PasswordResetRequiredException', 'For security reasons, please reset your password.', {
          code_delivery_details: delivery,
        }),
      ],
    });
    actor.send(submit());
    const reset = await settle('passwordResetRequired');
    expect(reset.context.reset).toEqual({
      username: 'admin@atrium.test',
      reason: SIGN_IN_MESSAGES.passwordResetRequired,
      delivery,
      afterMigration: false,
    });
    expect(reset.context.password).toBe('');
  });

  it('user not found: migrates the legacy contact once, signs in again once, and goes on', async () => {
    const { actor, states, settle, calls } = start({
      signIn: [failure('UserNotFoundException', 'User does not exist.'), authenticated],
      migrate: [true],
    });
    actor.send(submit('legacy@atrium.test', 'Old-Password-1'));
    await settle('signedIn');
    expect(calls.migrate.calls).toEqual([{ username: 'legacy@atrium.test', password: 'Old-Password-1' }]);
    expect(calls.signIn.calls).toHaveLength(2);
    expect(states).toEqual(['idle', 'signingIn', 'migratingUser', 'signingIn', 'completing', 'signedIn']);
  });

  it('user not found after the migration: the migration failure default, no second migration', async () => {
    const { actor, calls } = start({
      signIn: [failure('UserNotFoundException', 'User does not exist.')],
      migrate: [true],
    });
    actor.send(submit('legacy@atrium.test'));
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.usernameNotFound);
    expect(calls.migrate.calls).toHaveLength(1);
    expect(calls.signIn.calls).toHaveLength(2);
  });

  it.each([
    ['found no legacy contact', [false]],
    ['failed', [new Error('migrate_gen2_contact answered 500')]],
  ] as const)('user not found and the migration %s: "this username could not be found"', async (_case, migrate) => {
    const { actor, calls } = start({
      signIn: [failure('UserNotFoundException', 'User does not exist.')],
      migrate: [...migrate],
    });
    actor.send(submit('nobody@atrium.test'));
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.usernameNotFound);
    expect(calls.signIn.calls).toHaveLength(1);
  });

  it('password reset required right after a migration: reset-password-with-code follows', async () => {
    const { actor, settle } = start({
      signIn: [
        failure('UserNotFoundException', 'User does not exist.'),
        failure('PasswordResetRequiredException', 'For security reasons, please reset your password.'),
      ],
      migrate: [true],
    });
    actor.send(submit('legacy@atrium.test'));
    const reset = await settle('passwordResetRequired');
    expect(reset.context.reset).toMatchObject({ afterMigration: true, delivery: null, username: 'legacy@atrium.test' });
  });

  it.each([
    ['NotAuthorizedException', 'Incorrect username or password.', 'Incorrect username or password.'],
    ['NotAuthorizedException', 'Password attempts exceeded', 'Password attempts exceeded'],
    [
      'LimitExceededException',
      'Attempt limit exceeded, please try after some time.',
      'Attempt limit exceeded, please try after some time.',
    ],
    ['MFAMethodNotFoundException', 'anything', SIGN_IN_MESSAGES.mfaMethodMissing],
    ['UnknownError', 'boom', SIGN_IN_MESSAGES.unknownError],
    [undefined, 'Internal Server Error.', SIGN_IN_MESSAGES.loginError],
  ])('a %s failure shows its message and lets the user try again', async (code, message, expected) => {
    const { actor, settle } = start({ signIn: [failure(code, message), authenticated] });
    actor.send(submit());
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(expected);
    expect(actor.getSnapshot().context.password).toBe('');
    actor.send(submit());
    expect(actor.getSnapshot().context.error).toBeNull();
    await settle('signedIn');
  });

  it('a network failure (no response) shows the login error', async () => {
    const { actor } = start({ signIn: [new TypeError('Failed to fetch')] });
    actor.send(submit());
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.loginError);
  });

  it("an answer with a status this client does not know: 'Unknown status'", async () => {
    const { actor } = start({ signIn: [{ status: 'SELECT_MFA_TYPE', session: 'x' } as unknown as SignInResponse] });
    actor.send(submit());
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.unknownStatus);
  });

  it('an external provider callback signs in (/login/idpresponse)', async () => {
    const callback = { state: 'st', code: 'c0de', iss: 'https://idp.example' };
    const { actor, settle, calls } = start(
      { provider: [totpChallenge], mfa: [authenticated] },
      { start: { kind: 'provider', callback } },
    );
    await settle('mfaRequired');
    expect(calls.provider.calls).toEqual([callback]);
    actor.send({ type: 'SUBMIT_CODE', code: '123456' });
    await settle('signedIn');
  });

  it('a refused provider callback shows its message on the login page', async () => {
    const { actor } = start(
      { provider: [failure('NotAuthorizedException', SIGN_IN_MESSAGES.loginError)] },
      { start: { kind: 'provider', callback: { state: 'st', error: 'access_denied' } } },
    );
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.loginError);
  });

  it('ignores events that do not apply in a state', () => {
    const { actor } = start({});
    actor.send({ type: 'SUBMIT_CODE', code: '1' });
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'x' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('sign-in machine with the API client’s errors', () => {
  it('reads the identity code from the problem document the server answered', async () => {
    const { apiErrorFromResponse } = await import('@atrium/sdk');
    const problem = (code: string, detail: string, extra: Record<string, unknown> = {}) =>
      apiErrorFromResponse(400, {
        status: 400,
        title: 'Bad Request',
        detail,
        code,
        errors: [{ detail, code }],
        ...extra,
      });
    const wrong = start({ signIn: [problem('NotAuthorizedException', 'Incorrect username or password.') as never] });
    wrong.actor.send(submit());
    await waitFor(wrong.actor, (s) => s.context.error !== null);
    expect(wrong.actor.getSnapshot().context.error).toBe('Incorrect username or password.');

    const delivery = { delivery_medium: 'EMAIL', destination: 'u***@atrium.test', attribute_name: 'email' };
    const reset = start({
      signIn: [
        problem('PasswordResetRequiredException', SIGN_IN_MESSAGES.passwordResetRequired, {
          code_delivery_details: delivery,
        }) as never,
      ],
    });
    reset.actor.send(submit('underwriter@atrium.test'));
    const done = await reset.settle('passwordResetRequired');
    expect(done.context.reset?.delivery).toEqual(delivery);
  });
});
