import { Alert, Anchor, Button, Code, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { REQUIRED_MESSAGE, useApiClient } from '@atrium/sdk';
import {
  associateSoftwareToken,
  changeMfaPreference,
  failureMessage,
  useRefreshAccount,
  verifySoftwareToken,
} from '../account-api.js';
import { PasswordConfirmModal } from '../components/password-confirm-modal.js';
import { AUTHENTICATOR_METHOD } from '../mfa-methods.js';
import { securityRoute } from '../routes.js';

/**
 * `/my-account/security/configure-mfa/software-token`: enrol an authenticator app. The password is
 * asked once; a new secret is shown as a QR code of its otpauth:// URI (and as text); a code from the
 * app verifies it; then the app becomes the enabled, preferred method.
 */
export default function ConfigureSoftwareTokenPage() {
  const api = useApiClient();
  const navigate = useNavigate();
  const refresh = useRefreshAccount();
  const [password, setPassword] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ secret_code: string; otpauth_uri: string } | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    if (!secret) return;
    let cancelled = false;
    QRCode.toDataURL(secret.otpauth_uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((url) => !cancelled && setQr(url))
      .catch(() => !cancelled && setQr(null));
    return () => {
      cancelled = true;
    };
  }, [secret]);

  const associate = async (typed: string) => {
    setSecret(await associateSoftwareToken(api, typed));
    setPassword(typed);
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setCodeError(REQUIRED_MESSAGE);
      return;
    }
    setCodeError(null);
    setFailure(null);
    setWorking(true);
    try {
      await verifySoftwareToken(api, code.trim());
      await changeMfaPreference(api, password!, { software_token_mfa: { enabled: true, preferred: true } });
      await refresh();
      void navigate(securityRoute.link({}), { state: { status: `${AUTHENTICATOR_METHOD.label} enabled` } });
    } catch (error) {
      setFailure(failureMessage(error, 'The code could not be verified.'));
      setWorking(false);
    }
  };

  return (
    <Stack gap="md" maw={520}>
      <Title order={1}>Set up an authenticator app</Title>
      <PasswordConfirmModal
        opened={secret === null}
        title="Confirm it's you"
        description="Setting up an authenticator app needs your password."
        confirmLabel="Continue"
        onConfirm={associate}
        onClose={() => void navigate(securityRoute.link({}))}
      />
      {secret ? (
        <form onSubmit={(event) => void verify(event)} noValidate aria-label="Verify authenticator app">
          <Stack gap="sm">
            <Text>1. Scan this QR code with your authenticator app.</Text>
            {qr ? <Image src={qr} alt="QR code for your authenticator app" w={200} h={200} /> : null}
            <Text size="sm">
              Or enter this key by hand: <Code data-testid="totp-secret">{secret.secret_code}</Code>
            </Text>
            <Text>2. Enter the 6-digit code the app shows.</Text>
            {failure ? (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            ) : null}
            <TextInput
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              error={codeError}
              onChange={(event) => setCode(event.currentTarget.value)}
              onBlur={() => setCodeError(code.trim() ? null : REQUIRED_MESSAGE)}
            />
            <Group>
              <Button type="submit" loading={working}>
                Verify and enable
              </Button>
              <Anchor component={Link} to={securityRoute.link({})} size="sm">
                Cancel
              </Anchor>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}
