import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { signInMachine, type SignInStart } from '../machines/sign-in-machine.js';
import { identitySession } from '../session/identity-session.js';
import { signInActors } from './sign-in-actors.js';
import { postLoginTarget } from './safe-redirect.js';

/** What the MFA page receives in its history state (never in its URL). */
export interface MfaPageState {
  userSession: string;
}

export const LOGIN_PATHS = {
  login: '/login',
  resetPassword: '/login/reset-password',
  forgotPassword: '/login/forgot-password',
  forceResetPassword: '/login/force-reset-password',
  resetPasswordWithCode: '/login/reset-password-with-code',
  mfa: '/login/mfa',
  idpResponse: '/login/idpresponse',
  roleSelect: '/login/ko_roleSelect',
  selectRole: '/access/select-role',
} as const;

/** Route state of reset-password (the spec's "params": user, user attributes, required attributes). */
export interface ResetPasswordState {
  user: { username: string };
  userAttributes: { email: string; name: string; phone_number: string | null };
  requiredAttributes: string[];
  session: string;
}

/** Route state of reset-password-with-code and force-reset-password. */
export interface ResetWithCodeState {
  username: string;
  redirectPath?: string | null;
  deliveryDestination?: string | null;
  deliveryMedium?: 'EMAIL';
  resetRequiredReason?: string | null;
}

/** Shown on /login after a flow elsewhere failed ("something went wrong", then back to login). */
export interface LoginPageState {
  error?: string;
  username?: string;
}

/**
 * Runs the sign-in machine for a page and carries its outcomes out as navigation: the next page of
 * the conversation, the role picker, or the target (default `/?pageReload=true`).
 */
export function useSignInFlow(start: SignInStart, redirectPath: string | null) {
  const navigate = useNavigate();
  const logic = useMemo(() => signInMachine.provide({ actors: signInActors(identitySession) }), []);
  const [snapshot, send] = useMachine(logic, { input: { start } });
  const startedOn = start.kind;

  useEffect(() => {
    const { context } = snapshot;
    const redirect = redirectPath ?? undefined;
    if (snapshot.matches('signedIn')) {
      const target = postLoginTarget(redirectPath);
      if (context.next === 'chooseRole') {
        void navigate(`${LOGIN_PATHS.roleSelect}?${new URLSearchParams({ redirect: target })}`, { replace: true });
      } else if (context.next === 'noRoles') {
        void navigate(`${LOGIN_PATHS.selectRole}?${new URLSearchParams({ redirectReason: 'no-role-assignment' })}`, {
          replace: true,
        });
      } else {
        void navigate(target, { replace: true });
      }
    } else if (snapshot.matches('failed')) {
      const state: LoginPageState = { error: context.error ?? undefined, username: context.username };
      void navigate(LOGIN_PATHS.login, { replace: true, state });
    } else if (snapshot.matches('passwordResetRequired') && context.reset) {
      const { reset } = context;
      const state: ResetWithCodeState = {
        username: reset.username,
        redirectPath: redirect ?? null,
        deliveryDestination: reset.delivery?.destination ?? null,
        deliveryMedium: 'EMAIL',
        resetRequiredReason: reset.reason,
      };
      void navigate(reset.afterMigration ? LOGIN_PATHS.resetPasswordWithCode : LOGIN_PATHS.forceResetPassword, {
        state,
      });
    } else if (snapshot.matches('mfaRequired') && context.mfa && startedOn !== 'mfa') {
      const query = new URLSearchParams({
        username: context.username,
        medium: context.mfa.medium,
        destination: context.mfa.destination,
      });
      if (redirect) query.set('redirectPath', redirect);
      // The challenge session stays out of the URL (history, logs, Referer): it travels in the
      // history entry's state, which survives a reload of the page but is never sent anywhere.
      const state: MfaPageState = { userSession: context.mfa.session };
      void navigate(`${LOGIN_PATHS.mfa}?${query}`, { state });
    } else if (snapshot.matches('newPasswordRequired') && context.newPassword && startedOn !== 'newPassword') {
      const state: ResetPasswordState = {
        user: { username: context.username },
        userAttributes: context.newPassword.userAttributes,
        requiredAttributes: context.newPassword.requiredAttributes,
        session: context.newPassword.session,
      };
      void navigate(
        `${LOGIN_PATHS.resetPassword}${redirect ? `?${new URLSearchParams({ redirectPath: redirect })}` : ''}`,
        {
          state,
        },
      );
    }
  }, [snapshot, navigate, redirectPath, startedOn]);

  return { snapshot, send };
}
