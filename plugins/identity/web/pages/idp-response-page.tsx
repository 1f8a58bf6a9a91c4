import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BackToSignIn, LoginFrame } from '../components/login-frame.js';
import { OIDC_NONCE_MISMATCH } from '../sign-in-messages.js';
import { forgetProviderSignIn, pendingProviderSignIn, type PendingProviderSignIn } from '../sign-in/provider-state.js';
import { useSignInFlow } from '../sign-in/use-sign-in-flow.js';

/**
 * `/login/idpresponse`: the external provider returns here with `code`, `state` (and `iss`, or
 * `error`). The state must be the one this browser started with; the identity service then checks
 * it again with its nonce and PKCE verifier and answers a sign-in outcome.
 */
export default function IdpResponsePage() {
  const [params] = useSearchParams();
  const [pending] = useState<PendingProviderSignIn | null>(() =>
    pendingProviderSignIn(localStorage, params.get('state')),
  );
  if (!pending) {
    return (
      <LoginFrame title="Sign in" footer={<BackToSignIn />}>
        <Alert color="red" role="alert">
          {OIDC_NONCE_MISMATCH}
        </Alert>
      </LoginFrame>
    );
  }
  return <ProviderSignIn pending={pending} params={params} />;
}

function ProviderSignIn({ pending, params }: { pending: PendingProviderSignIn; params: URLSearchParams }) {
  const [callback] = useState(() => {
    const read = (name: string) => params.get(name) ?? undefined;
    return {
      state: pending.state,
      code: read('code'),
      iss: read('iss'),
      error: read('error'),
      error_description: read('error_description'),
    };
  });
  const { snapshot } = useSignInFlow({ kind: 'provider', callback }, pending.redirect);
  const error = snapshot.context.error;
  const answered = !snapshot.matches('starting') && !snapshot.matches('signingInWithProvider');
  useEffect(() => {
    // The identity service used the state up; keep no copy of it.
    if (answered) forgetProviderSignIn(localStorage);
  }, [answered]);
  return (
    <LoginFrame title="Sign in" footer={error ? <BackToSignIn /> : null}>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : (
        <Stack align="center" gap="xs">
          <Loader role="status" aria-label="Signing in" />
          <Text size="sm">Signing you in…</Text>
        </Stack>
      )}
    </LoginFrame>
  );
}
