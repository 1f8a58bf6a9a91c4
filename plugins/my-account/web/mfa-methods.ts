/**
 * The security section's MFA methods (spec: "States and transitions" → MFA methods): each is enabled
 * or disabled; setting one preferred also enables it; disabling it clears both. The server applies
 * the same rule (PUT /api/identity/mfa-preference); this module says what to ask it for.
 */
export type MfaMethodKey = 'sms_mfa' | 'software_token_mfa';

export interface MfaMethod {
  key: MfaMethodKey;
  label: string;
  /** The identity service's name for it (the `preferred` value). */
  name: 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA';
}

export const SMS_METHOD: MfaMethod = { key: 'sms_mfa', label: 'Text Message (SMS)', name: 'SMS_MFA' };
export const AUTHENTICATOR_METHOD: MfaMethod = {
  key: 'software_token_mfa',
  label: 'Authenticator App',
  name: 'SOFTWARE_TOKEN_MFA',
};
export const MFA_METHODS: readonly MfaMethod[] = [SMS_METHOD, AUTHENTICATOR_METHOD];

export interface AccountMfa {
  preferred: 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA' | null;
  sms_mfa_enabled: boolean;
  software_token_mfa_enabled: boolean;
  software_token_verified: boolean;
}

export interface MfaMethodState extends MfaMethod {
  enabled: boolean;
  preferred: boolean;
  /** SMS needs a phone number, the app a verified software token; without it "enable" configures first. */
  ready: boolean;
}

export function mfaMethodStates(mfa: AccountMfa, phoneNumber: string | null): MfaMethodState[] {
  return MFA_METHODS.map((method) => ({
    ...method,
    enabled: method.key === 'sms_mfa' ? mfa.sms_mfa_enabled : mfa.software_token_mfa_enabled,
    preferred: mfa.preferred === method.name,
    ready: method.key === 'sms_mfa' ? Boolean(phoneNumber) : mfa.software_token_verified,
  }));
}

export type MfaAction = 'enable' | 'disable' | 'prefer';

/** The mfa-preference body (without the password) for one action on one method. */
export function mfaPreferenceChange(method: MfaMethodState, action: MfaAction) {
  const preference =
    action === 'disable'
      ? { enabled: false, preferred: false }
      : action === 'prefer'
        ? { enabled: true, preferred: true }
        : { enabled: true, preferred: method.preferred };
  return { [method.key]: preference } as Partial<Record<MfaMethodKey, { enabled: boolean; preferred: boolean }>>;
}

/** The actions a method offers in its state. */
export function availableActions(method: MfaMethodState): MfaAction[] {
  if (!method.enabled) return ['enable'];
  return method.preferred ? ['disable'] : ['prefer', 'disable'];
}

export const disableConfirmationMessage = (label: string) => `This will disable ${label} MFA. Are you sure?`;
export const methodDisabledMessage = (label: string) => `${label} disabled`;
export const SMS_MFA_DISABLED_MESSAGE = 'SMS based MFA has been disabled.';
export const PROFILE_INCOMPLETE_MESSAGE = "We're sorry, but some information is missing.";
export const PROFILE_SAVE_FAILED_MESSAGE = "We're sorry, but we were unable to save your changes.";
export const SMS_DISABLE_FAILED_MESSAGE =
  'Unable to disable SMS MFA. Your updates have not been saved to avoid loss of access to account.';
export const USER_ATTRIBUTES_ERROR = "Error while retrieving user's attributes";
