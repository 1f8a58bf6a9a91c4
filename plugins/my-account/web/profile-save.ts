import { REQUIRED_MESSAGE } from '@atrium/sdk';
import { PROFILE_INCOMPLETE_MESSAGE, PROFILE_SAVE_FAILED_MESSAGE, SMS_DISABLE_FAILED_MESSAGE } from './mfa-methods.js';

/**
 * Saving the profile form (spec: "Validation rules" → profile save; "States and transitions" → MFA
 * methods): the form must be valid; changing the phone number while SMS MFA is on asks first, then
 * disables SMS MFA before anything is saved, so codes never go to a number the user no longer has;
 * cancelling aborts; if SMS MFA cannot be disabled nothing is saved.
 * (The server also turns SMS MFA off when the number changes; disabling it first, with the
 * password, is what keeps a failure from leaving the profile half changed.)
 */
export interface ProfileValues {
  name: string;
  email: string;
  phone_number: string;
}

export interface ProfileSaveSteps {
  /** Asks whether to go on: the phone number changes and SMS MFA will be disabled. */
  confirmPhoneChange(): Promise<boolean>;
  disableSmsMfa(): Promise<void>;
  save(values: ProfileValues): Promise<void>;
}

export type ProfileSaveResult =
  | { status: 'saved'; smsMfaDisabled: boolean }
  | { status: 'cancelled' }
  | { status: 'invalid'; message: string; fields: Partial<Record<keyof ProfileValues, string>> }
  | { status: 'failed'; message: string; cause: unknown };

export function validateProfile(values: ProfileValues): Partial<Record<keyof ProfileValues, string>> {
  const fields: Partial<Record<keyof ProfileValues, string>> = {};
  if (!values.name.trim()) fields.name = REQUIRED_MESSAGE;
  if (!values.email.trim()) fields.email = REQUIRED_MESSAGE;
  return fields;
}

const normalizedPhone = (value: string | null | undefined) => (value ?? '').replace(/[\s().-]/g, '');

export async function saveProfile(
  before: ProfileValues,
  values: ProfileValues,
  smsMfaEnabled: boolean,
  steps: ProfileSaveSteps,
): Promise<ProfileSaveResult> {
  const fields = validateProfile(values);
  if (Object.keys(fields).length > 0) return { status: 'invalid', message: PROFILE_INCOMPLETE_MESSAGE, fields };
  const phoneChanges = normalizedPhone(before.phone_number) !== normalizedPhone(values.phone_number);
  let smsMfaDisabled = false;
  if (phoneChanges && smsMfaEnabled) {
    if (!(await steps.confirmPhoneChange())) return { status: 'cancelled' };
    try {
      await steps.disableSmsMfa();
      smsMfaDisabled = true;
    } catch (cause) {
      return { status: 'failed', message: SMS_DISABLE_FAILED_MESSAGE, cause };
    }
  }
  try {
    await steps.save(values);
  } catch (cause) {
    return { status: 'failed', message: PROFILE_SAVE_FAILED_MESSAGE, cause };
  }
  return { status: 'saved', smsMfaDisabled };
}
