import { isApiRequestError } from '@atrium/sdk';
import { assign, fromPromise, setup } from 'xstate';
import type { z } from 'zod';
import type { codeDeliveryDetails, signInResponse } from '../../shared/identity-schemas.js';
import { SIGN_IN_MESSAGES } from '../sign-in-messages.js';
import { identityFailureOf, type IdentityFailure } from '../session/identity-call-error.js';
import type { AuthenticationResult } from '../session/session-client.js';

/**
 * The sign-in conversation (spec: "States and transitions" → sign-in outcomes), without React:
 *
 *   idle ─SUBMIT→ signingIn ─→ outcome
 *     AUTHENTICATED            → completing → signedIn (final; where to go next in `next`)
 *     NEW_PASSWORD_REQUIRED    → newPasswordRequired ─SUBMIT_NEW_PASSWORD→ answeringNewPassword → outcome
 *     SMS_MFA / SOFTWARE_TOKEN_MFA → mfaRequired ─SUBMIT_CODE→ answeringMfa → outcome (RESEND_CODE for SMS)
 *     PasswordResetRequiredException → passwordResetRequired (final: force-reset-password, or
 *                                     reset-password-with-code when the user was just migrated)
 *     UserNotFoundException    → migratingUser (once) → signingIn again (once)
 *     any other status         → idle, 'Unknown status'
 *   a finished sign-in that cannot be completed → failed ("something went wrong", back to login)
 *
 * The MFA type choice (SELECT_MFA_TYPE) is answered with SMS by the identity service itself, so it
 * never reaches the client. Pages start the machine where their URL says (`input.start`): the MFA
 * page in mfaRequired, the reset-password page in newPasswordRequired, /login/idpresponse with a
 * provider callback. The calls are actors, replaced in tests with `machine.provide({ actors })`.
 */
export type SignInResponse = z.infer<typeof signInResponse>;
export type CodeDeliveryDetails = z.infer<typeof codeDeliveryDetails>;
export type MfaMedium = 'SMS' | 'SOFTWARE_TOKEN';

export interface MfaChallenge {
  session: string;
  medium: MfaMedium;
  /** Masked phone number for SMS; empty for the authenticator app. */
  destination: string;
}

export interface NewPasswordChallenge {
  session: string;
  userAttributes: { email: string; name: string; phone_number: string | null };
  requiredAttributes: string[];
}

export interface PasswordReset {
  username: string;
  /** The identity service's reason ('For security reasons, please reset your password.'). */
  reason: string;
  /** Where the reset code went, when the service already sent one. */
  delivery: CodeDeliveryDetails | null;
  /** True when the user was migrated just now: the reset-password-with-code page follows. */
  afterMigration: boolean;
}

/** What happens after the session is stored: go on, pick one of several roles, or hear there is none. */
export type NextStep = 'continue' | 'chooseRole' | 'noRoles';

export interface ProviderCallback {
  state: string;
  code?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

export type SignInStart =
  | { kind: 'password' }
  | { kind: 'mfa'; username: string; challenge: MfaChallenge }
  | { kind: 'newPassword'; username: string; challenge: NewPasswordChallenge }
  | { kind: 'provider'; callback: ProviderCallback };

export interface SignInInput {
  start?: SignInStart;
}

export interface SignInContext {
  start: SignInStart;
  username: string;
  password: string;
  /** The legacy-contact migration ran (it runs once per sign-in). */
  migrated: boolean;
  response: SignInResponse | null;
  mfa: MfaChallenge | null;
  newPassword: NewPasswordChallenge | null;
  reset: PasswordReset | null;
  next: NextStep | null;
  error: string | null;
}

export type SignInEvent =
  | { type: 'SUBMIT'; username: string; password: string }
  | { type: 'SUBMIT_NEW_PASSWORD'; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'RESEND_CODE' }
  | { type: 'RESTART' };

/** The message the catalogue gives a failed sign-in call. */
export function signInErrorMessage(failure: IdentityFailure): string {
  switch (failure.code) {
    case 'MFAMethodNotFoundException':
      return SIGN_IN_MESSAGES.mfaMethodMissing;
    case 'UnknownError':
      return SIGN_IN_MESSAGES.unknownError;
    case 'UserNotFoundException':
      return SIGN_IN_MESSAGES.usernameNotFound;
    case 'PasswordResetRequiredException':
      return SIGN_IN_MESSAGES.passwordResetRequired;
    // The identity provider's own words: 'Incorrect username or password.', 'Password attempts
    // exceeded', 'Invalid session for the user, session is expired.', code mismatch, policy …
    case 'NotAuthorizedException':
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
    case 'InvalidParameterException':
    case 'LimitExceededException':
      return failure.message || SIGN_IN_MESSAGES.loginError;
    default:
      return SIGN_IN_MESSAGES.loginError;
  }
}

const failureOf = (error: unknown): IdentityFailure =>
  // Actors reject with the API client's error, or with a ready IdentityFailure.
  !isApiRequestError(error) && typeof error === 'object' && error !== null && 'code' in error && 'body' in error
    ? (error as IdentityFailure)
    : identityFailureOf(error);

const deliveryOf = (failure: IdentityFailure): CodeDeliveryDetails | null => {
  const details = failure.body?.code_delivery_details as CodeDeliveryDetails | undefined;
  return details && typeof details.destination === 'string' ? details : null;
};

const initialContext = (start: SignInStart): SignInContext => ({
  start,
  username: start.kind === 'mfa' || start.kind === 'newPassword' ? start.username : '',
  password: '',
  migrated: false,
  response: null,
  mfa: start.kind === 'mfa' ? start.challenge : null,
  newPassword: start.kind === 'newPassword' ? start.challenge : null,
  reset: null,
  next: null,
  error: null,
});

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
  },
  actors: {
    signIn: fromPromise<SignInResponse, { username: string; password: string }>(async () => {
      throw new Error('signIn is not provided');
    }),
    /** POST migrate_gen2_contact: true when a legacy contact became a user. */
    migrateLegacyContact: fromPromise<boolean, { username: string; password: string }>(async () => false),
    answerNewPassword: fromPromise<SignInResponse, { username: string; session: string; password: string }>(
      async () => {
        throw new Error('answerNewPassword is not provided');
      },
    ),
    answerMfa: fromPromise<SignInResponse, { username: string; session: string; code: string }>(async () => {
      throw new Error('answerMfa is not provided');
    }),
    resendCode: fromPromise<CodeDeliveryDetails, { username: string; session: string }>(async () => {
      throw new Error('resendCode is not provided');
    }),
    signInWithProvider: fromPromise<SignInResponse, ProviderCallback>(async () => {
      throw new Error('signInWithProvider is not provided');
    }),
    /** Stores the session and works out the role step. */
    completeSignIn: fromPromise<NextStep, AuthenticationResult>(async () => 'continue'),
  },
  guards: {
    isAuthenticated: ({ context }) => context.response?.status === 'AUTHENTICATED',
    needsNewPassword: ({ context }) => context.response?.status === 'NEW_PASSWORD_REQUIRED',
    needsMfa: ({ context }) =>
      context.response?.status === 'SMS_MFA' || context.response?.status === 'SOFTWARE_TOKEN_MFA',
    startsWithMfa: ({ context }) => context.start.kind === 'mfa',
    startsWithNewPassword: ({ context }) => context.start.kind === 'newPassword',
    startsWithProvider: ({ context }) => context.start.kind === 'provider',
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => initialContext(input?.start ?? { kind: 'password' }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: 'startsWithMfa', target: 'mfaRequired' },
        { guard: 'startsWithNewPassword', target: 'newPasswordRequired' },
        { guard: 'startsWithProvider', target: 'signingInWithProvider' },
        { target: 'idle' },
      ],
    },

    idle: {
      on: {
        SUBMIT: {
          target: 'signingIn',
          actions: assign(({ event }) => ({
            username: event.username.trim(),
            password: event.password,
            migrated: false,
            error: null,
          })),
        },
      },
    },

    signingIn: {
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({ username: context.username, password: context.password }),
        onDone: { target: 'routingOutcome', actions: assign({ response: ({ event }) => event.output }) },
        onError: [
          {
            guard: ({ context, event }) => failureOf(event.error).code === 'UserNotFoundException' && !context.migrated,
            target: 'migratingUser',
          },
          {
            guard: ({ event }) => failureOf(event.error).code === 'PasswordResetRequiredException',
            target: 'passwordResetRequired',
            actions: assign(({ context, event }) => {
              const failure = failureOf(event.error);
              return {
                password: '',
                reset: {
                  username: context.username,
                  reason: failure.message || SIGN_IN_MESSAGES.passwordResetRequired,
                  delivery: deliveryOf(failure),
                  afterMigration: context.migrated,
                },
              };
            }),
          },
          {
            target: 'idle',
            actions: assign(({ event }) => ({ password: '', error: signInErrorMessage(failureOf(event.error)) })),
          },
        ],
      },
    },

    migratingUser: {
      invoke: {
        src: 'migrateLegacyContact',
        input: ({ context }) => ({ username: context.username, password: context.password }),
        onDone: [
          {
            guard: ({ event }) => event.output === true,
            target: 'signingIn',
            actions: assign({ migrated: true }),
          },
          { target: 'idle', actions: assign({ password: '', error: SIGN_IN_MESSAGES.usernameNotFound }) },
        ],
        // The migration's failure default.
        onError: { target: 'idle', actions: assign({ password: '', error: SIGN_IN_MESSAGES.usernameNotFound }) },
      },
    },

    signingInWithProvider: {
      invoke: {
        src: 'signInWithProvider',
        input: ({ context }) => (context.start.kind === 'provider' ? context.start.callback : { state: '' }),
        onDone: { target: 'routingOutcome', actions: assign({ response: ({ event }) => event.output }) },
        onError: {
          target: 'idle',
          actions: assign(({ event }) => {
            const failure = failureOf(event.error);
            return { error: failure.code === 'NotAuthorizedException' ? failure.message : signInErrorMessage(failure) };
          }),
        },
      },
    },

    routingOutcome: {
      always: [
        { guard: 'isAuthenticated', target: 'completing' },
        {
          guard: 'needsNewPassword',
          target: 'newPasswordRequired',
          actions: assign(({ context }) => {
            const response = context.response as Extract<SignInResponse, { status: 'NEW_PASSWORD_REQUIRED' }>;
            return {
              password: '',
              newPassword: {
                session: response.session,
                userAttributes: response.challenge_parameters.user_attributes,
                requiredAttributes: response.challenge_parameters.required_attributes,
              },
            };
          }),
        },
        {
          guard: 'needsMfa',
          target: 'mfaRequired',
          actions: assign(({ context }) => {
            const response = context.response as Extract<SignInResponse, { status: 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA' }>;
            return {
              password: '',
              mfa:
                response.status === 'SMS_MFA'
                  ? {
                      session: response.session,
                      medium: 'SMS' as const,
                      destination: response.challenge_parameters.destination,
                    }
                  : { session: response.session, medium: 'SOFTWARE_TOKEN' as const, destination: '' },
            };
          }),
        },
        { target: 'idle', actions: assign({ password: '', error: SIGN_IN_MESSAGES.unknownStatus }) },
      ],
    },

    newPasswordRequired: {
      on: {
        SUBMIT_NEW_PASSWORD: { target: 'answeringNewPassword', actions: assign({ error: null }) },
        RESTART: {
          target: 'idle',
          actions: assign(({ context }) => ({ ...initialContext({ kind: 'password' }), username: context.username })),
        },
      },
    },
    answeringNewPassword: {
      invoke: {
        src: 'answerNewPassword',
        input: ({ context, event }) => ({
          username: context.username,
          session: context.newPassword?.session ?? '',
          password: (event as Extract<SignInEvent, { type: 'SUBMIT_NEW_PASSWORD' }>).password,
        }),
        onDone: { target: 'routingOutcome', actions: assign({ response: ({ event }) => event.output }) },
        onError: {
          target: 'newPasswordRequired',
          actions: assign(({ event }) => ({ error: signInErrorMessage(failureOf(event.error)) })),
        },
      },
    },

    mfaRequired: {
      on: {
        SUBMIT_CODE: { target: 'answeringMfa', actions: assign({ error: null }) },
        RESTART: {
          target: 'idle',
          actions: assign(({ context }) => ({ ...initialContext({ kind: 'password' }), username: context.username })),
        },
        RESEND_CODE: {
          guard: ({ context }) => context.mfa?.medium === 'SMS',
          target: 'resendingCode',
          actions: assign({ error: null }),
        },
      },
    },
    answeringMfa: {
      invoke: {
        src: 'answerMfa',
        input: ({ context, event }) => ({
          username: context.username,
          session: context.mfa?.session ?? '',
          code: (event as Extract<SignInEvent, { type: 'SUBMIT_CODE' }>).code.trim(),
        }),
        onDone: { target: 'routingOutcome', actions: assign({ response: ({ event }) => event.output }) },
        onError: {
          target: 'mfaRequired',
          actions: assign(({ event }) => ({ error: signInErrorMessage(failureOf(event.error)) })),
        },
      },
    },
    resendingCode: {
      invoke: {
        src: 'resendCode',
        input: ({ context }) => ({ username: context.username, session: context.mfa?.session ?? '' }),
        onDone: {
          target: 'mfaRequired',
          actions: assign(({ context, event }) => ({
            mfa: context.mfa ? { ...context.mfa, destination: event.output.destination } : null,
          })),
        },
        onError: {
          target: 'mfaRequired',
          actions: assign(({ event }) => ({ error: signInErrorMessage(failureOf(event.error)) })),
        },
      },
    },

    completing: {
      invoke: {
        src: 'completeSignIn',
        input: ({ context }) =>
          (context.response as Extract<SignInResponse, { status: 'AUTHENTICATED' }>).authentication_result,
        onDone: { target: 'signedIn', actions: assign({ next: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: SIGN_IN_MESSAGES.somethingWentWrong }) },
      },
    },

    passwordResetRequired: { type: 'final' },
    signedIn: { type: 'final' },
    failed: { type: 'final' },
  },
});
