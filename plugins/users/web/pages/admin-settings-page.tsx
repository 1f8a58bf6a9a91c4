import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  isApiRequestError,
  mapServerFormErrors,
  maxValue,
  minValue,
  required,
  useApiClient,
  useCan,
  useHostServices,
  validateForm,
  type FieldRules,
} from '@atrium/sdk';
import { ErrorAlert, UsersAreaGate } from '../components/shared.js';
import { errorMessageOf, usersKeys, type MfaConfiguration, type PasswordPolicy } from '../users-api.js';

export const MFA_SETTINGS_API = '/identity/settings/mfa-settings';
export const PASSWORD_POLICY_API = '/identity/settings/password-policy';
/** The core setting (section login, option session-timeout) in minutes, read and written by classic calls. */
export const SETTING_VALUE_API = '/v2/settings/get_setting_value';
export const SET_SETTING_VALUE_API = '/v2/settings/set_setting_value';

const MFA_OPTIONS: { value: MfaConfiguration; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'optional', label: 'Optional' },
  { value: 'required', label: 'Required' },
];

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');

/**
 * Administrator settings: MFA off, optional or required, the password policy and the session timeout.
 * Each is editable when the caller may update it (`identity:settings` / `core:setting`), else read-only.
 */
export default function AdminSettingsPage() {
  return (
    <UsersAreaGate>
      <AdminSettings />
    </UsersAreaGate>
  );
}

function AdminSettings() {
  return (
    <Stack maw={640}>
      <Title order={1}>Admin settings</Title>
      <MfaCard />
      <PasswordPolicyCard />
      <SessionTimeoutCard />
    </Stack>
  );
}

function MfaCard() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canUpdate = useCan('identity:settings', 'update').allowed;
  const mfa = useQuery({
    queryKey: usersKeys.settings('mfa'),
    queryFn: ({ signal }) => api.get<{ mfa_configuration: MfaConfiguration }>(MFA_SETTINGS_API, { signal }),
  });
  const [choice, setChoice] = useState<MfaConfiguration | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = mfa.data?.mfa_configuration ?? null;
  const value = choice ?? current;

  async function save() {
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await api.put<{ mfa_configuration: MfaConfiguration }>(MFA_SETTINGS_API, {
        mfa_configuration: value,
      });
      queryClient.setQueryData(usersKeys.settings('mfa'), saved);
      setChoice(null);
      services.showToast({ message: 'MFA setting saved.', kind: 'success' });
    } catch (failure) {
      setError(errorMessageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Multi-factor authentication
        </Title>
        <ErrorAlert error={mfa.error} />
        {mfa.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading MFA setting" />
        ) : (
          <>
            <Text size="sm" id="mfa-setting-label">
              Off: nobody is asked. Optional: users may turn it on. Required: everyone signs in with a second factor
              (users without a method get SMS to their phone).
            </Text>
            <SegmentedControl
              aria-labelledby="mfa-setting-label"
              disabled={!canUpdate}
              data={MFA_OPTIONS}
              value={value ?? 'optional'}
              onChange={(next) => setChoice(next as MfaConfiguration)}
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            {canUpdate && (
              <Group>
                <Button onClick={save} loading={busy} disabled={value === current}>
                  Save MFA setting
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

type NumberValue = number | string;

/** Field errors and the form-wide error of a settings form, from the SDK rules or the server's pointers. */
interface FormState {
  errors: Partial<Record<string, string>>;
  formError: string | null;
}

function serverFormState(error: unknown): FormState {
  if (!isApiRequestError(error)) return { errors: {}, formError: errorMessageOf(error) };
  const mapped = mapServerFormErrors(error);
  const hasFields = Object.keys(mapped.fields).length > 0;
  return {
    errors: mapped.fields,
    formError: mapped.formError
      ? [mapped.formError, ...mapped.formDetails].join(' ')
      : hasFields
        ? null
        : error.message,
  };
}

interface PolicyValues extends Record<string, unknown> {
  minimum_length: NumberValue;
  require_lowercase: boolean;
  require_uppercase: boolean;
  require_numbers: boolean;
  require_symbols: boolean;
  password_history_size: NumberValue;
  temporary_password_validity_days: NumberValue;
}

/** The bounds PUT settings/password-policy enforces (docs/identity.md). */
const POLICY_RULES: Partial<Record<keyof PolicyValues & string, FieldRules>> = {
  minimum_length: { label: 'Minimum length', rules: [required(), minValue(8), maxValue(128)] },
  password_history_size: { label: 'Passwords remembered', rules: [required(), minValue(0), maxValue(24)] },
  temporary_password_validity_days: {
    label: 'Temporary password validity',
    rules: [required(), minValue(1), maxValue(90)],
  },
};

const POLICY_FLAGS: {
  key: 'require_lowercase' | 'require_uppercase' | 'require_numbers' | 'require_symbols';
  label: string;
}[] = [
  { key: 'require_lowercase', label: 'Lower-case letters' },
  { key: 'require_uppercase', label: 'Upper-case letters' },
  { key: 'require_numbers', label: 'Numbers' },
  { key: 'require_symbols', label: 'Symbols' },
];

function PasswordPolicyCard() {
  const api = useApiClient();
  const canUpdate = useCan('identity:settings', 'update').allowed;
  const policy = useQuery({
    queryKey: usersKeys.settings('password-policy'),
    queryFn: ({ signal }) => api.get<PasswordPolicy>(PASSWORD_POLICY_API, { signal }),
  });
  const p = policy.data;
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Password policy
        </Title>
        <ErrorAlert error={policy.error} />
        {p && canUpdate && <PasswordPolicyForm policy={p} />}
        {p && !canUpdate && (
          <Table aria-label="Password policy">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>Minimum length</Table.Th>
                <Table.Td>{p.minimum_length}</Table.Td>
              </Table.Tr>
              {POLICY_FLAGS.map((flag) => (
                <Table.Tr key={flag.key}>
                  <Table.Th>{flag.label}</Table.Th>
                  <Table.Td>{yesNo(p[flag.key])}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th>Passwords remembered</Table.Th>
                <Table.Td>{p.password_history_size}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Temporary passwords valid for</Table.Th>
                <Table.Td>{p.temporary_password_validity_days} days</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

function PasswordPolicyForm({ policy }: { policy: PasswordPolicy }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<PolicyValues>(() => ({ ...policy }));
  const [state, setState] = useState<FormState>({ errors: {}, formError: null });
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof PolicyValues & string>(key: K, value: PolicyValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setState((current) => ({ ...current, errors: { ...current.errors, [key]: undefined } }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const invalid = validateForm(values, POLICY_RULES);
    setState({ errors: invalid, formError: null });
    if (Object.keys(invalid).length) return;
    setBusy(true);
    try {
      const saved = await api.put<PasswordPolicy>(PASSWORD_POLICY_API, {
        ...values,
        minimum_length: Number(values.minimum_length),
        password_history_size: Number(values.password_history_size),
        temporary_password_validity_days: Number(values.temporary_password_validity_days),
      });
      queryClient.setQueryData(usersKeys.settings('password-policy'), saved);
      services.showToast({ message: 'Password policy saved.', kind: 'success' });
    } catch (failure) {
      setState(serverFormState(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} noValidate aria-label="Password policy">
      <Stack>
        <NumberInput
          label="Minimum length"
          allowDecimal={false}
          value={values.minimum_length}
          onChange={(value) => set('minimum_length', value)}
          error={state.errors.minimum_length}
        />
        {POLICY_FLAGS.map((flag) => (
          <Checkbox
            key={flag.key}
            label={`Require ${flag.label.toLowerCase()}`}
            checked={values[flag.key]}
            onChange={(event) => set(flag.key, event.currentTarget.checked)}
            error={state.errors[flag.key]}
          />
        ))}
        <NumberInput
          label="Passwords remembered"
          description="How many earlier passwords a new one may not repeat (0: none)."
          allowDecimal={false}
          value={values.password_history_size}
          onChange={(value) => set('password_history_size', value)}
          error={state.errors.password_history_size}
        />
        <NumberInput
          label="Temporary passwords valid for (days)"
          allowDecimal={false}
          value={values.temporary_password_validity_days}
          onChange={(value) => set('temporary_password_validity_days', value)}
          error={state.errors.temporary_password_validity_days}
        />
        {state.formError && (
          <Alert color="red" role="alert">
            {state.formError}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            Save password policy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const SESSION_TIMEOUT_RULES: Partial<Record<'value', FieldRules>> = {
  value: { label: 'Session timeout', rules: [required(), minValue(0), maxValue(1440)] },
};

function SessionTimeoutCard() {
  const api = useApiClient();
  const canUpdate = useCan('core:setting', 'update').allowed;
  const timeout = useQuery({
    queryKey: usersKeys.settings('session-timeout'),
    queryFn: async ({ signal }) => {
      const answer = await api.post<{ data?: unknown }>(
        SETTING_VALUE_API,
        { section: 'login', option: 'session-timeout' },
        { signal },
      );
      const minutes = Number(answer?.data);
      return Number.isFinite(minutes) ? minutes : null;
    },
  });
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Session timeout
        </Title>
        <ErrorAlert error={timeout.error} />
        {timeout.data !== undefined && canUpdate && <SessionTimeoutForm minutes={timeout.data} />}
        {timeout.data !== undefined && !canUpdate && (
          <Text data-testid="session-timeout">
            {timeout.data === null ? 'Not set' : timeout.data === 0 ? 'No timeout' : `${timeout.data} minutes`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function SessionTimeoutForm({ minutes }: { minutes: number | null }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<{ value: NumberValue }>({ value: minutes ?? '' });
  const [state, setState] = useState<FormState>({ errors: {}, formError: null });
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    const invalid = validateForm(values, SESSION_TIMEOUT_RULES);
    setState({ errors: invalid, formError: null });
    if (Object.keys(invalid).length) return;
    setBusy(true);
    try {
      const answer = await api.post<{ data?: unknown }>(SET_SETTING_VALUE_API, {
        section: 'login',
        option: 'session-timeout',
        value: Number(values.value),
      });
      queryClient.setQueryData(usersKeys.settings('session-timeout'), Number(answer?.data));
      services.showToast({ message: 'Session timeout saved.', kind: 'success' });
    } catch (failure) {
      setState(serverFormState(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={save} noValidate aria-label="Session timeout">
      <Stack>
        <NumberInput
          label="Session timeout (minutes)"
          description="Minutes of inactivity before sign-out, at most 1440 (a day); 0: no timeout."
          allowDecimal={false}
          value={values.value}
          onChange={(value) => {
            setValues({ value });
            setState({ errors: {}, formError: null });
          }}
          error={state.errors.value}
        />
        {state.formError && (
          <Alert color="red" role="alert">
            {state.formError}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            Save session timeout
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
