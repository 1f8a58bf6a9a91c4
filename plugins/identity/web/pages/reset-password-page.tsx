import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { BackToSignIn, LoginFrame } from '../components/login-frame.js';
import {
  NewPasswordFields,
  usePasswordPolicy,
  validateNewPassword,
  type NewPasswordErrors,
} from '../components/new-password-fields.js';
import { RESET_PASSWORD_HEADER } from '../sign-in-messages.js';
import { LOGIN_PATHS, useSignInFlow, type ResetPasswordState } from '../sign-in/use-sign-in-flow.js';

/**
 * `/login/reset-password` (params user, user attributes, required attributes; query redirectPath):
 * a temporary password must be replaced (NEW_PASSWORD_REQUIRED); the second factor may follow.
 */
export default function ResetPasswordPage() {
  const state = useLocation().state as ResetPasswordState | null;
  const [params] = useSearchParams();
  if (!state?.session || !state.user?.username) return <Navigate to={LOGIN_PATHS.login} replace />;
  return <NewPasswordForm state={state} redirectPath={params.get('redirectPath')} />;
}

function NewPasswordForm({ state, redirectPath }: { state: ResetPasswordState; redirectPath: string | null }) {
  const { snapshot, send } = useSignInFlow(
    {
      kind: 'newPassword',
      username: state.user.username,
      challenge: {
        session: state.session,
        userAttributes: state.userAttributes,
        requiredAttributes: state.requiredAttributes,
      },
    },
    redirectPath,
  );
  const { data: policy } = usePasswordPolicy();
  const [values, setValues] = useState({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<NewPasswordErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = validateNewPassword(values, policy);
    setErrors(next);
    if (next.password || next.confirmation) return;
    send({ type: 'SUBMIT_NEW_PASSWORD', password: values.password });
  };

  return (
    <LoginFrame title={RESET_PASSWORD_HEADER} footer={<BackToSignIn />}>
      <form onSubmit={submit} noValidate aria-label={RESET_PASSWORD_HEADER}>
        <Stack gap="sm">
          <Text size="sm">
            {state.userAttributes.name ? `${state.userAttributes.name}, your` : 'Your'} temporary password must be
            replaced before you can continue.
          </Text>
          {snapshot.context.error ? (
            <Alert color="red" role="alert">
              {snapshot.context.error}
            </Alert>
          ) : null}
          <NewPasswordFields values={values} errors={errors} onChange={setValues} onErrors={setErrors} />
          <Button type="submit" loading={!snapshot.matches('newPasswordRequired')}>
            Set password
          </Button>
        </Stack>
      </form>
    </LoginFrame>
  );
}
