import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { LoadingState, useApiClient } from '@atrium/sdk';
import { changeMfaPreference, useAccount, useRefreshAccount } from '../account-api.js';
import { PasswordConfirmModal } from '../components/password-confirm-modal.js';
import { SMS_METHOD, USER_ATTRIBUTES_ERROR } from '../mfa-methods.js';
import { myAccountRoute, securityRoute } from '../routes.js';

/**
 * `/my-account/security/configure-mfa/sms`: text-message codes go to the phone number on the
 * profile. With a number, enabling asks for the password; without one there is nothing to enable.
 */
export default function ConfigureSmsPage() {
  const api = useApiClient();
  const account = useAccount();
  const refresh = useRefreshAccount();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);

  const enable = async (password: string) => {
    const preferNothingElse = !account.data?.mfa.preferred;
    await changeMfaPreference(api, password, { sms_mfa: { enabled: true, preferred: preferNothingElse } });
    setConfirming(false);
    await refresh();
    void navigate(securityRoute.link({}), { state: { status: `${SMS_METHOD.label} enabled` } });
  };

  let body;
  if (account.isPending) body = <LoadingState rows={4} label="Loading your profile" />;
  else if (account.isError)
    body = (
      <Alert color="red" role="alert">
        {USER_ATTRIBUTES_ERROR}
      </Alert>
    );
  else if (!account.data.phone_number)
    body = (
      <Alert color="yellow">
        Text-message codes need a phone number on your{' '}
        <Anchor component={Link} to={myAccountRoute.link({})}>
          profile
        </Anchor>
        , and there is none yet.
      </Alert>
    );
  else
    body = (
      <Stack gap="sm">
        <Text>
          Codes will be sent to <strong>{account.data.phone_number}</strong> each time you sign in.
        </Text>
        <Group>
          <Button onClick={() => setConfirming(true)}>Enable text message codes</Button>
          <Anchor component={Link} to={securityRoute.link({})} size="sm">
            Cancel
          </Anchor>
        </Group>
      </Stack>
    );

  return (
    <Stack gap="md" maw={520}>
      <Title order={1}>Set up text message codes</Title>
      {body}
      <PasswordConfirmModal
        opened={confirming}
        title="Confirm it's you"
        description="Changing a sign-in factor needs your password."
        confirmLabel="Enable"
        onConfirm={enable}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
