import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { REQUIRED_MESSAGE } from '@atrium/sdk';
import type { codeDeliveryResponse } from '../../shared/identity-schemas.js';
import { identityFailureOf } from '../session/identity-call-error.js';
import { identitySession } from '../session/identity-session.js';
import { RESET_PASSWORD_HEADER } from '../sign-in-messages.js';
import { signInErrorMessage } from '../machines/sign-in-machine.js';
import { useSignInFlow } from '../sign-in/use-sign-in-flow.js';
import { BackToSignIn, LoginFrame } from './login-frame.js';
import {
  NewPasswordFields,
  usePasswordPolicy,
  validateNewPassword,
  type NewPasswordErrors,
} from './new-password-fields.js';

/**
 * Sets a new password with the code the identity service e-mailed (forgot-password/confirm), then
 * signs in with it — through the second factor when the account has one (a reset never skips MFA).
 */
export function ResetWithCodeForm({
  intro,
  username: knownUsername,
  deliveryDestination,
  redirectPath,
}: {
  intro: string | null;
  username: string | null;
  deliveryDestination: string | null;
  redirectPath: string | null;
}) {
  const { snapshot, send } = useSignInFlow({ kind: 'password' }, redirectPath);
  const { data: policy } = usePasswordPolicy();
  const [username, setUsername] = useState(knownUsername ?? '');
  const [code, setCode] = useState('');
  const [passwords, setPasswords] = useState({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<NewPasswordErrors & { username?: string | null; code?: string | null }>({});
  const [destination, setDestination] = useState(deliveryDestination);
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const signingIn = !snapshot.matches('idle');

  const resend = async () => {
    if (!username.trim()) {
      setErrors((e) => ({ ...e, username: REQUIRED_MESSAGE }));
      return;
    }
    setFailure(null);
    try {
      const answer = await identitySession.publicApi.post<z.infer<typeof codeDeliveryResponse>>(
        'identity/forgot-password',
        {
          username: username.trim(),
        },
      );
      setDestination(answer.code_delivery_details.destination);
    } catch (error) {
      setFailure(signInErrorMessage(identityFailureOf(error)));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = {
      ...validateNewPassword(passwords, policy),
      username: username.trim() ? null : REQUIRED_MESSAGE,
      code: code.trim() ? null : REQUIRED_MESSAGE,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setFailure(null);
    setWorking(true);
    try {
      await identitySession.publicApi.post('identity/forgot-password/confirm', {
        username: username.trim(),
        code: code.trim(),
        password: passwords.password,
      });
      send({ type: 'SUBMIT', username, password: passwords.password });
    } catch (error) {
      setFailure(signInErrorMessage(identityFailureOf(error)));
    } finally {
      setWorking(false);
    }
  };

  const error = failure ?? snapshot.context.error;
  return (
    <LoginFrame title={RESET_PASSWORD_HEADER} footer={<BackToSignIn />}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={RESET_PASSWORD_HEADER}>
        <Stack gap="sm">
          {intro ? <Text>{intro}</Text> : null}
          {destination ? (
            <Text size="sm">We sent a verification code by email to {destination}.</Text>
          ) : (
            <Text size="sm">Enter the verification code we sent to your email address.</Text>
          )}
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          {knownUsername ? null : (
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              withAsterisk={false}
              value={username}
              error={errors.username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
          )}
          <TextInput
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            withAsterisk={false}
            value={code}
            error={errors.code}
            onChange={(event) => setCode(event.currentTarget.value)}
            onBlur={() => setErrors((e) => ({ ...e, code: code.trim() ? null : REQUIRED_MESSAGE }))}
          />
          <NewPasswordFields
            values={passwords}
            errors={errors}
            onChange={setPasswords}
            onErrors={(e) => setErrors((prev) => ({ ...prev, ...e }))}
          />
          <Button type="submit" loading={working || signingIn}>
            Reset password
          </Button>
          <Group justify="flex-end">
            <Anchor component="button" type="button" size="sm" onClick={() => void resend()}>
              Send a new code
            </Anchor>
          </Group>
        </Stack>
      </form>
    </LoginFrame>
  );
}
