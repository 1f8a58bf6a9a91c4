import { Alert, Button, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import type { oidcAuthorizeResponse, oidcProviderSummaries } from '../../shared/identity-schemas.js';
import { identityFailureOf } from '../session/identity-call-error.js';
import { identitySession } from '../session/identity-session.js';
import { rememberProviderSignIn } from '../sign-in/provider-state.js';
import { LOGIN_PATHS } from '../sign-in/use-sign-in-flow.js';

/** "Sign in with …" for each enabled external OpenID Connect provider; nothing when there is none. */
export function ProviderButtons({ redirect, divider }: { redirect: string | null; divider: ReactNode }) {
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState<string | null>(null);
  const { data } = useQuery({
    queryKey: ['identity', 'oidc-providers'],
    queryFn: () => identitySession.publicApi.get<z.infer<typeof oidcProviderSummaries>>('identity/oidc-providers'),
    staleTime: 60_000,
    retry: false,
  });
  const providers = data?.providers ?? [];
  if (providers.length === 0) return null;

  const start = async (providerId: string) => {
    setStarting(providerId);
    setError(null);
    try {
      const answer = await identitySession.publicApi.post<z.infer<typeof oidcAuthorizeResponse>>(
        'identity/oidc/authorize',
        {
          provider_id: providerId,
          redirect_uri: `${window.location.origin}${LOGIN_PATHS.idpResponse}`,
        },
      );
      rememberProviderSignIn(localStorage, { state: answer.state, providerId, redirect, startedAt: Date.now() });
      window.location.assign(answer.authorization_url);
    } catch (failure) {
      setError(identityFailureOf(failure).message);
      setStarting(null);
    }
  };

  return (
    <Stack gap="sm">
      {divider}
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="default"
          loading={starting === provider.id}
          onClick={() => void start(provider.id)}
        >
          Sign in with {provider.name}
        </Button>
      ))}
    </Stack>
  );
}
