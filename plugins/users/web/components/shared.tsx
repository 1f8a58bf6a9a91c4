import { Button, Code, CopyButton, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '@atrium/sdk';
import { isAgentRole } from '../users-api.js';

export { BatchFailureModal, ConfirmButton, ErrorAlert, type BatchFailure } from '@atrium/sdk';

/**
 * The Users area is closed to agents and agencies (spec): the route guard already refuses them
 * through `ViewModule` on `ui:users` (the Agent and Agency system policies deny it); this keeps the
 * rule even when a custom policy would let such a role see the module.
 */
export function UsersAreaGate({ children }: { children: ReactNode }) {
  const { effectiveRole } = useSession();
  if (isAgentRole(effectiveRole)) return <Navigate to="/forbidden" replace />;
  return <>{children}</>;
}

/** A temporary password as the server answered it once, with a button that copies it. */
export function TemporaryPassword({ value }: { value: string }) {
  return (
    <Group gap="xs">
      <Text size="sm">Temporary password:</Text>
      <Code data-testid="temporary-password">{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-sm" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
            {copied ? 'Copied' : 'Copy password'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
