import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { REQUIRED_MESSAGE } from '@atrium/sdk';
import { BackToSignIn, LoginFrame } from '../components/login-frame.js';
import type { MfaMedium } from '../machines/sign-in-machine.js';
import { LOGIN_PATHS, useSignInFlow, type MfaPageState } from '../sign-in/use-sign-in-flow.js';

/**
 * `/login/mfa?username&redirectPath&medium&destination`: the second factor. SMS codes can be sent
 * again; the authenticator app's code is typed from the app. The challenge session comes in the
 * history state (MfaPageState), never in the URL, where history, logs and Referer would keep it;
 * without it the page goes back to sign-in.
 */
export default function MfaPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const state = location.state as Partial<MfaPageState> | null;
  const session = typeof state?.userSession === 'string' ? state.userSession : null;
  const username = params.get('username');
  const medium: MfaMedium = params.get('medium') === 'SMS' ? 'SMS' : 'SOFTWARE_TOKEN';
  if (!session || !username) return <Navigate to={LOGIN_PATHS.login} replace />;
  return (
    <MfaForm
      username={username}
      session={session}
      medium={medium}
      destination={params.get('destination') ?? ''}
      redirectPath={params.get('redirectPath')}
    />
  );
}

function MfaForm(props: {
  username: string;
  session: string;
  medium: MfaMedium;
  destination: string;
  redirectPath: string | null;
}) {
  const { snapshot, send } = useSignInFlow(
    {
      kind: 'mfa',
      username: props.username,
      challenge: { session: props.session, medium: props.medium, destination: props.destination },
    },
    props.redirectPath,
  );
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const busy = !snapshot.matches('mfaRequired');
  const sms = props.medium === 'SMS';
  const destination = snapshot.context.mfa?.destination ?? props.destination;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setCodeError(REQUIRED_MESSAGE);
      return;
    }
    setCodeError(null);
    send({ type: 'SUBMIT_CODE', code });
    setCode('');
  };

  return (
    <LoginFrame title="Verify it's you" footer={<BackToSignIn />}>
      <form onSubmit={submit} noValidate aria-label="Verification code">
        <Stack gap="sm">
          <Text size="sm">
            {sms
              ? `We sent a text message with a code to ${destination || 'your phone'}.`
              : 'Enter the 6-digit code from your authenticator app.'}
          </Text>
          {snapshot.context.error ? (
            <Alert color="red" role="alert">
              {snapshot.context.error}
            </Alert>
          ) : null}
          <TextInput
            label={sms ? 'Code from the text message' : 'Authenticator app code'}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            required
            withAsterisk={false}
            maxLength={16}
            value={code}
            error={codeError}
            onChange={(event) => setCode(event.currentTarget.value)}
            onBlur={() => setCodeError(code.trim() ? null : REQUIRED_MESSAGE)}
          />
          <Button type="submit" loading={busy && !snapshot.matches('resendingCode')}>
            Verify
          </Button>
          {sms ? (
            <Group justify="flex-end">
              <Anchor
                component="button"
                type="button"
                size="sm"
                disabled={busy}
                onClick={() => send({ type: 'RESEND_CODE' })}
              >
                Send a new code
              </Anchor>
            </Group>
          ) : null}
        </Stack>
      </form>
    </LoginFrame>
  );
}
