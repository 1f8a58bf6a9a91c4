import { PasswordInput, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { REQUIRED_MESSAGE } from '@atrium/sdk';
import { identitySession } from '../session/identity-session.js';
import {
  PASSWORD_POLICY_CACHE_MS,
  PASSWORDS_DIFFER,
  passwordPolicyHint,
  passwordRuleMessage,
  type PasswordPolicy,
} from '../sign-in/password-rule.js';

export function usePasswordPolicy() {
  return useQuery({
    queryKey: ['identity', 'password-policy'],
    queryFn: () => identitySession.publicApi.get<PasswordPolicy>('identity/settings/password-policy'),
    staleTime: PASSWORD_POLICY_CACHE_MS,
  });
}

export interface NewPasswordValues {
  password: string;
  confirmation: string;
}

export interface NewPasswordErrors {
  password?: string | null;
  confirmation?: string | null;
}

export function validateNewPassword(values: NewPasswordValues, policy: PasswordPolicy | undefined): NewPasswordErrors {
  return {
    password: values.password ? passwordRuleMessage(values.password, policy) : REQUIRED_MESSAGE,
    confirmation: !values.confirmation
      ? REQUIRED_MESSAGE
      : values.confirmation !== values.password
        ? PASSWORDS_DIFFER
        : null,
  };
}

/** New password and its confirmation, checked against the password policy on blur and on submit. */
export function NewPasswordFields({
  values,
  errors,
  onChange,
  onErrors,
}: {
  values: NewPasswordValues;
  errors: NewPasswordErrors;
  onChange(values: NewPasswordValues): void;
  onErrors(errors: NewPasswordErrors): void;
}) {
  const { data: policy } = usePasswordPolicy();
  const check = (field: keyof NewPasswordValues) =>
    onErrors({ ...errors, [field]: validateNewPassword(values, policy)[field] ?? null });
  return (
    <Stack gap="sm">
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        required
        withAsterisk={false}
        description={passwordPolicyHint(policy)}
        value={values.password}
        error={errors.password}
        onChange={(event) => onChange({ ...values, password: event.currentTarget.value })}
        onBlur={() => check('password')}
      />
      <PasswordInput
        label="Confirm new password"
        autoComplete="new-password"
        required
        withAsterisk={false}
        value={values.confirmation}
        error={errors.confirmation}
        onChange={(event) => onChange({ ...values, confirmation: event.currentTarget.value })}
        onBlur={() => check('confirmation')}
      />
    </Stack>
  );
}
