import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { REQUIRED_MESSAGE, useApiClient } from '@atrium/sdk';
import { failureMessage, useRefreshAccount, verifyAttribute } from '../account-api.js';

const LABELS = { email: 'email address', phone_number: 'phone number' } as const;

/**
 * A changed e-mail address or phone number stays unverified until the code sent to it is entered
 * (POST users/me/verify-attribute). "Send a new code" asks for another one.
 */
export function AttributeVerification({
  attribute,
  destination,
}: {
  attribute: 'email' | 'phone_number';
  destination: string;
}) {
  const api = useApiClient();
  const refresh = useRefreshAccount();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const label = LABELS[attribute];

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setFieldError(REQUIRED_MESSAGE);
      return;
    }
    setFieldError(null);
    setFailure(null);
    setWorking(true);
    try {
      await verifyAttribute(api, attribute, code.trim());
      await refresh();
    } catch (error) {
      setFailure(failureMessage(error, 'The code could not be checked.'));
      setWorking(false);
    }
  };

  const resend = async () => {
    setFailure(null);
    try {
      await verifyAttribute(api, attribute);
      setNotice(`We sent a new code to ${destination}.`);
    } catch (error) {
      setFailure(failureMessage(error, 'No code could be sent.'));
    }
  };

  return (
    <Paper withBorder p="md">
      <form onSubmit={(event) => void verify(event)} noValidate aria-label={`Verify your ${label}`}>
        <Stack gap="xs">
          <Text size="sm">
            Your {label} {destination} is not verified yet. Enter the code we sent to it.
          </Text>
          {notice ? (
            <Text size="sm" role="status">
              {notice}
            </Text>
          ) : null}
          {failure ? (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label={`Code sent to your ${label}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            error={fieldError}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" size="xs" loading={working}>
              Verify
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => void resend()}>
              Send a new code
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
