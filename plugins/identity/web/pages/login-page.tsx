import { Alert, Anchor, Button, Divider, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { validateValue, required } from '@atrium/sdk';
import { LoginFrame } from '../components/login-frame.js';
import { ProviderButtons } from '../components/provider-buttons.js';
import { LOGIN_PATHS, useSignInFlow, type LoginPageState } from '../sign-in/use-sign-in-flow.js';

const rules = [required()];

/** `/login`: e-mail and password; the sign-in machine decides what follows. */
export default function LoginPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const carried = (location.state ?? {}) as LoginPageState;
  const redirect = params.get('redirect');
  const { snapshot, send } = useSignInFlow({ kind: 'password' }, redirect);
  const [username, setUsername] = useState(carried.username ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string | null; password?: string | null }>({});
  const busy = !snapshot.matches('idle');
  const error =
    snapshot.context.error ?? (snapshot.matches('idle') && !snapshot.context.username ? carried.error : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      username: validateValue(username, 'Email', rules),
      password: validateValue(password, 'Password', rules),
    };
    setErrors(next);
    if (next.username || next.password) return;
    send({ type: 'SUBMIT', username, password });
    setPassword('');
  };

  return (
    <LoginFrame title="Sign in">
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="sm">
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            autoFocus
            required
            withAsterisk={false}
            value={username}
            error={errors.username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            onBlur={() => setErrors((e) => ({ ...e, username: validateValue(username, 'Email', rules) }))}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={password}
            error={errors.password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            onBlur={() => setErrors((e) => ({ ...e, password: validateValue(password, 'Password', rules) }))}
          />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
          <Group justify="flex-end">
            <Anchor component={Link} to={LOGIN_PATHS.forgotPassword} size="sm">
              Forgot your password?
            </Anchor>
          </Group>
        </Stack>
      </form>
      <ProviderButtons redirect={redirect} divider={<Divider label="or" labelPosition="center" />} />
    </LoginFrame>
  );
}
