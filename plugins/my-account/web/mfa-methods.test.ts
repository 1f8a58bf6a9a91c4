import { describe, expect, it } from 'vitest';
import {
  availableActions,
  disableConfirmationMessage,
  mfaMethodStates,
  mfaPreferenceChange,
  type AccountMfa,
} from './mfa-methods.js';

const none: AccountMfa = {
  preferred: null,
  sms_mfa_enabled: false,
  software_token_mfa_enabled: false,
  software_token_verified: false,
};

describe('MFA methods', () => {
  it('lists Text Message (SMS) and Authenticator App with their state', () => {
    const [sms, app] = mfaMethodStates(
      {
        preferred: 'SOFTWARE_TOKEN_MFA',
        sms_mfa_enabled: true,
        software_token_mfa_enabled: true,
        software_token_verified: true,
      },
      '+15555550123',
    );
    expect(sms).toMatchObject({ label: 'Text Message (SMS)', enabled: true, preferred: false, ready: true });
    expect(app).toMatchObject({ label: 'Authenticator App', enabled: true, preferred: true, ready: true });
  });

  it('a method needs its factor before it can be enabled', () => {
    const [sms, app] = mfaMethodStates(none, null);
    expect(sms!.ready).toBe(false);
    expect(app!.ready).toBe(false);
  });

  it('setting preferred enables and prefers; disabling clears both; enabling keeps preferred as it was', () => {
    const [sms] = mfaMethodStates({ ...none, sms_mfa_enabled: true, preferred: 'SMS_MFA' }, '+15555550123');
    expect(mfaPreferenceChange(sms!, 'prefer')).toEqual({ sms_mfa: { enabled: true, preferred: true } });
    expect(mfaPreferenceChange(sms!, 'disable')).toEqual({ sms_mfa: { enabled: false, preferred: false } });
    expect(mfaPreferenceChange(sms!, 'enable')).toEqual({ sms_mfa: { enabled: true, preferred: true } });
    const [, app] = mfaMethodStates({ ...none, software_token_verified: true }, null);
    expect(mfaPreferenceChange(app!, 'enable')).toEqual({ software_token_mfa: { enabled: true, preferred: false } });
  });

  it('offers enable when disabled, prefer and disable when enabled, only disable when preferred', () => {
    const [sms, app] = mfaMethodStates(
      { preferred: 'SMS_MFA', sms_mfa_enabled: true, software_token_mfa_enabled: true, software_token_verified: true },
      '+1',
    );
    expect(availableActions(sms!)).toEqual(['disable']);
    expect(availableActions(app!)).toEqual(['prefer', 'disable']);
    expect(availableActions(mfaMethodStates(none, null)[0]!)).toEqual(['enable']);
  });

  it('words the disable confirmation as the spec does', () => {
    expect(disableConfirmationMessage('Authenticator App')).toBe(
      'This will disable Authenticator App MFA. Are you sure?',
    );
  });
});
