import { Alert, Anchor, Button, Loader, Radio, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LoginFrame } from '../components/login-frame.js';
import { identityFailureOf } from '../session/identity-call-error.js';
import { identitySession } from '../session/identity-session.js';
import { NO_ROLE_ASSIGNMENTS, ROLE_FETCH_ERROR } from '../sign-in-messages.js';
import { afterRoleTarget, rolePrompt } from '../sign-in/role-choice.js';

/**
 * `/login/ko_roleSelect?redirect=` (after signing in with several roles) and
 * `/access/select-role?redirectReason=` (the role switcher, or a request refused for want of a role).
 * Choosing a role tells the server (POST /api/access/role-select, chosen_role cookie), stores it as
 * the effective role, and loads the app afresh so that no evaluation cached for another role survives.
 */
export default function RoleSelectPage() {
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const redirectReason = params.get('redirectReason');
  const roles = useQuery({ queryKey: ['identity', 'roles'], queryFn: () => identitySession.roles(), retry: false });
  const [choice, setChoice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return;
    setSaving(true);
    setError(null);
    try {
      await identitySession.selectRole(choice);
      window.location.assign(afterRoleTarget(redirect));
    } catch (failure) {
      setError(identityFailureOf(failure).message);
      setSaving(false);
    }
  };

  let body;
  if (roles.isPending) body = <Loader role="status" aria-label="Loading roles" />;
  else if (roles.isError)
    body = (
      <Alert color="red" role="alert">
        {ROLE_FETCH_ERROR}
      </Alert>
    );
  else if (roles.data.length === 0)
    body = (
      <Alert color="yellow" role="alert">
        {NO_ROLE_ASSIGNMENTS}
      </Alert>
    );
  else
    body = (
      <form onSubmit={(event) => void submit(event)} aria-label="Select a role">
        <Stack gap="sm">
          <Radio.Group
            label={rolePrompt(roles.data, redirectReason)}
            value={choice}
            onChange={setChoice}
            name="effective-role"
          >
            <Stack gap="xs" mt="xs">
              {roles.data.map((role) => (
                <Radio key={role} value={role} label={role} />
              ))}
            </Stack>
          </Radio.Group>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" disabled={!choice} loading={saving}>
            Continue
          </Button>
        </Stack>
      </form>
    );

  return (
    <LoginFrame
      title="Select a role"
      footer={
        <Text size="sm">
          <Anchor component={Link} to="/logout">
            Log out
          </Anchor>
        </Text>
      }
    >
      {body}
    </LoginFrame>
  );
}
