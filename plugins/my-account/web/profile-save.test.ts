import { describe, expect, it, vi } from 'vitest';
import { saveProfile, type ProfileSaveSteps, type ProfileValues } from './profile-save.js';

const before: ProfileValues = { name: 'Sam Textmessage', email: 'sms@atrium.test', phone_number: '+15555550123' };

function steps(overrides: Partial<Record<keyof ProfileSaveSteps, () => Promise<unknown>>> = {}) {
  const order: string[] = [];
  const step = (name: keyof ProfileSaveSteps, fallback: unknown) =>
    vi.fn(async () => {
      order.push(name);
      return overrides[name] ? overrides[name]!() : fallback;
    });
  return {
    order,
    steps: {
      confirmPhoneChange: step('confirmPhoneChange', true) as ProfileSaveSteps['confirmPhoneChange'],
      disableSmsMfa: step('disableSmsMfa', undefined) as ProfileSaveSteps['disableSmsMfa'],
      save: step('save', undefined) as ProfileSaveSteps['save'],
    },
  };
}

describe('saving the profile', () => {
  it("refuses an incomplete form: 'We're sorry, but some information is missing.'", async () => {
    const { steps: s, order } = steps();
    const result = await saveProfile(before, { ...before, name: ' ' }, true, s);
    expect(result).toEqual({
      status: 'invalid',
      message: "We're sorry, but some information is missing.",
      fields: { name: 'This field is required.' },
    });
    expect(order).toEqual([]);
  });

  it('saves without asking when the phone number stays (formatting aside)', async () => {
    const { steps: s, order } = steps();
    const result = await saveProfile(before, { ...before, name: 'Sam T.', phone_number: '+1 555 555 0123' }, true, s);
    expect(result).toEqual({ status: 'saved', smsMfaDisabled: false });
    expect(order).toEqual(['save']);
  });

  it('asks, then disables SMS MFA before saving a new phone number', async () => {
    const { steps: s, order } = steps();
    const result = await saveProfile(before, { ...before, phone_number: '+15555550999' }, true, s);
    expect(result).toEqual({ status: 'saved', smsMfaDisabled: true });
    expect(order).toEqual(['confirmPhoneChange', 'disableSmsMfa', 'save']);
  });

  it('does nothing when the user cancels the phone change', async () => {
    const { steps: s, order } = steps({ confirmPhoneChange: async () => false });
    expect(await saveProfile(before, { ...before, phone_number: '+15555550999' }, true, s)).toEqual({
      status: 'cancelled',
    });
    expect(order).toEqual(['confirmPhoneChange']);
  });

  it('saves nothing when SMS MFA cannot be disabled', async () => {
    const { steps: s, order } = steps({ disableSmsMfa: async () => Promise.reject(new Error('refused')) });
    expect(await saveProfile(before, { ...before, phone_number: '+15555550999' }, true, s)).toEqual({
      status: 'failed',
      message: 'Unable to disable SMS MFA. Your updates have not been saved to avoid loss of access to account.',
      cause: new Error('refused'),
    });
    expect(order).toEqual(['confirmPhoneChange', 'disableSmsMfa']);
  });

  it("says 'We're sorry, but we were unable to save your changes.' when the save fails", async () => {
    const { steps: s } = steps({ save: async () => Promise.reject(new Error('500')) });
    expect(await saveProfile(before, { ...before, name: 'X' }, false, s)).toEqual({
      status: 'failed',
      message: "We're sorry, but we were unable to save your changes.",
      cause: new Error('500'),
    });
  });

  it('changes the phone number without asking when SMS MFA is off', async () => {
    const { steps: s, order } = steps();
    expect(await saveProfile(before, { ...before, phone_number: '' }, false, s)).toEqual({
      status: 'saved',
      smsMfaDisabled: false,
    });
    expect(order).toEqual(['save']);
  });
});
