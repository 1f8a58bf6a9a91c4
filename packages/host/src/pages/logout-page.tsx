import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useHostRuntime } from '../host-runtime-context.js';

/** `/logout`: ends the session, forgets everything cached for it, and shows the login page. */
export default function LogoutPage() {
  const runtime = useHostRuntime();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    void runtime.auth
      .getState()
      .signOut()
      .then(() => {
        runtime.access.clear();
        queryClient.clear();
        if (!cancelled) void navigate('/login', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [runtime, queryClient, navigate]);
  return (
    <Center h="100vh">
      <Loader role="status" aria-label="Signing out" />
    </Center>
  );
}
