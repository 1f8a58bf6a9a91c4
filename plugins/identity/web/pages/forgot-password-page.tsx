import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { REQUIRED_MESSAGE } from '@atrium/sdk';
import type { codeDeliveryResponse } from '../../shared/identity-schemas.js';
import { BackToSignIn, LoginFrame } from '../components/login-frame.js';
import { signInErrorMessage } from '../machines/sign-in-machine.js';
import { identityFailureOf } from '../session/identity-call-error.js';
import { identitySession } from '../session/identity-session.js';
import { RESET_PASSWORD_HEADER } from '../sign-in-messages.js';
import { LOGIN_PATHS, type ResetWithCodeState } from '../sign-in/use-sign-in-flow.js';

/** `/login/forgot-password`: e-mails a reset code, then the code page takes over. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) {
      setFieldError(REQUIRED_MESSAGE);
      return;
    }
    setFieldError(null);
    setFailure(null);
    setWorking(true);
    try {
      const answer = await identitySession.publicApi.post<z.infer<typeof codeDeliveryResponse>>(
        'identity/forgot-password',
        {
          username: username.trim(),
        },
      );
      const state: ResetWithCodeState = {
        username: username.trim(),
        redirectPath: null,
        deliveryDestination: answer.code_delivery_details.destination,
        deliveryMedium: 'EMAIL',
        resetRequiredReason: null,
      };
      void navigate(LOGIN_PATHS.resetPasswordWithCode, { state });
    } catch (error) {
      setFailure(signInErrorMessage(identityFailureOf(error)));
      setWorking(false);
    }
  };

  return (
    <LoginFrame title={RESET_PASSWORD_HEADER} footer={<BackToSignIn />}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Forgot password">
        <Stack gap="sm">
          <Text size="sm">Enter your email address and we will send you a code to reset your password.</Text>
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            autoFocus
            required
            withAsterisk={false}
            value={username}
            error={fieldError}
            onChange={(event) => setUsername(event.currentTarget.value)}
            onBlur={() => setFieldError(username.trim() ? null : REQUIRED_MESSAGE)}
          />
          <Button type="submit" loading={working}>
            Send code
          </Button>
        </Stack>
      </form>
    </LoginFrame>
  );
}
