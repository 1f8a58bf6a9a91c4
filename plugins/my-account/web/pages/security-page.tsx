import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { CONFIRM_CANCEL, CONFIRM_YES, LoadingState, useApiClient } from '@atrium/sdk';
import { changeMfaPreference, useAccount, useRefreshAccount } from '../account-api.js';
import { AccountTabs } from '../components/account-tabs.js';
import { PasswordConfirmModal } from '../components/password-confirm-modal.js';
import {
  availableActions,
  disableConfirmationMessage,
  methodDisabledMessage,
  mfaMethodStates,
  mfaPreferenceChange,
  USER_ATTRIBUTES_ERROR,
  type MfaAction,
  type MfaMethodState,
} from '../mfa-methods.js';
import { configureSmsRoute, configureSoftwareTokenRoute } from '../routes.js';

const ACTION_LABELS: Record<MfaAction, string> = { enable: 'Enable', disable: 'Disable', prefer: 'Set as preferred' };

interface PendingChange {
  method: MfaMethodState;
  action: MfaAction;
}

/** `/my-account/security`: the second factors — enable, prefer or disable each. */
export default function SecurityPage() {
  const api = useApiClient();
  const account = useAccount();
  const refresh = useRefreshAccount();
  const navigate = useNavigate();
  const carried = (useLocation().state ?? {}) as { status?: string };
  const [confirming, setConfirming] = useState<PendingChange | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [status, setStatus] = useState<string | null>(carried.status ?? null);

  const start = (method: MfaMethodState, action: MfaAction) => {
    setStatus(null);
    if (action === 'enable' && !method.ready) {
      void navigate(method.key === 'sms_mfa' ? configureSmsRoute.link({}) : configureSoftwareTokenRoute.link({}));
      return;
    }
    if (action === 'disable') setConfirming({ method, action });
    else setPending({ method, action });
  };

  const apply = async (password: string) => {
    if (!pending) return;
    const { method, action } = pending;
    await changeMfaPreference(api, password, mfaPreferenceChange(method, action));
    setPending(null);
    await refresh();
    setStatus(
      action === 'disable'
        ? methodDisabledMessage(method.label)
        : action === 'prefer'
          ? `${method.label} is now your preferred method.`
          : `${method.label} enabled`,
    );
  };

  let body;
  if (account.isPending) body = <LoadingState rows={4} label="Loading your security settings" />;
  else if (account.isError)
    body = (
      <Alert color="red" role="alert">
        {USER_ATTRIBUTES_ERROR}
      </Alert>
    );
  else {
    const methods = mfaMethodStates(account.data.mfa, account.data.phone_number);
    body = (
      <Table withTableBorder aria-label="MFA methods">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Method</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {methods.map((method) => (
            <Table.Tr key={method.key}>
              <Table.Td>{method.label}</Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <Text size="sm">{method.enabled ? 'Enabled' : 'Disabled'}</Text>
                  {method.preferred ? <Badge variant="light">Preferred</Badge> : null}
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  {availableActions(method).map((action) => (
                    <Button
                      key={action}
                      size="xs"
                      variant={action === 'disable' ? 'light' : 'filled'}
                      color={action === 'disable' ? 'red' : undefined}
                      aria-label={`${ACTION_LABELS[action]} ${method.label}`}
                      onClick={() => start(method, action)}
                    >
                      {ACTION_LABELS[action]}
                    </Button>
                  ))}
                  {method.key === 'software_token_mfa' && method.ready ? (
                    <Anchor component={Link} to={configureSoftwareTokenRoute.link({})} size="sm">
                      Set up a new device
                    </Anchor>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>My Account</Title>
      <AccountTabs active="security" />
      <Title order={2} size="h3">
        Multi-factor authentication
      </Title>
      <Text size="sm">A second factor is asked for after your password when you sign in.</Text>
      {status ? (
        <Alert color="green" role="status">
          {status}
        </Alert>
      ) : null}
      {body}

      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title="Disable MFA">
        <Stack gap="sm">
          <Text>{confirming ? disableConfirmationMessage(confirming.method.label) : ''}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {CONFIRM_CANCEL}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setPending(confirming);
                setConfirming(null);
              }}
            >
              {CONFIRM_YES}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <PasswordConfirmModal
        opened={pending !== null}
        title="Confirm it's you"
        description="Changing a sign-in factor needs your password."
        confirmLabel={pending ? ACTION_LABELS[pending.action] : 'Confirm'}
        onConfirm={apply}
        onClose={() => setPending(null)}
      />
    </Stack>
  );
}
