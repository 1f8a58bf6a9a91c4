// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import AdminSettingsPage from './admin-settings-page.js';

const POLICY = {
  minimum_length: 12,
  require_lowercase: true,
  require_uppercase: true,
  require_numbers: true,
  require_symbols: false,
  password_history_size: 5,
  temporary_password_validity_days: 7,
};

const apis = {
  'GET /identity/settings/mfa-settings': { mfa_configuration: 'optional' },
  'PUT /identity/settings/mfa-settings': ({ body }: { body: unknown }) => body,
  'GET /identity/settings/password-policy': POLICY,
  'POST /v2/settings/get_setting_value': { success: true, data: 480 },
};

describe('admin settings page', () => {
  beforeAll(preloadTestHost);

  it('changes the MFA setting and reads the password policy and the session timeout', async () => {
    const host = await renderInTestHost(<AdminSettingsPage />, { apis });
    const timeout = await screen.findByLabelText('Session timeout (minutes)');
    expect((timeout as HTMLInputElement).value).toBe('480');
    const policy = await screen.findByRole('form', { name: 'Password policy' });
    expect((within(policy).getByLabelText('Minimum length') as HTMLInputElement).value).toBe('12');
    expect((within(policy).getByLabelText('Require symbols') as HTMLInputElement).checked).toBe(false);
    expect((within(policy).getByLabelText('Temporary passwords valid for (days)') as HTMLInputElement).value).toBe('7');

    const save = screen.getByRole('button', { name: 'Save MFA setting' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await host.user.click(screen.getByText('Required'));
    await host.user.click(save);
    await waitFor(() =>
      expect(host.requests.find((r) => r.method === 'PUT')?.body).toEqual({ mfa_configuration: 'required' }),
    );
    expect(host.requests.find((r) => r.path === '/api/v2/settings/get_setting_value')?.body).toEqual({
      section: 'login',
      option: 'session-timeout',
    });
  });

  it('shows the password policy and the session timeout read-only to whoever may not change them', async () => {
    await renderInTestHost(<AdminSettingsPage />, {
      apis,
      canView: (resource) => resource !== 'identity:settings' && resource !== 'core:setting',
    });
    expect((await screen.findByTestId('session-timeout')).textContent).toBe('480 minutes');
    const policy = await screen.findByRole('table', { name: 'Password policy' });
    expect(policy.textContent).toContain('Minimum length12');
    expect(policy.textContent).toContain('Temporary passwords valid for7 days');
    expect(screen.queryByRole('button', { name: 'Save password policy' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save session timeout' })).toBeNull();
  });

  it('saves the password policy, checking bounds first and showing the server errors by pointer', async () => {
    let refuse = true;
    const host = await renderInTestHost(<AdminSettingsPage />, {
      apis: {
        ...apis,
        'PUT /identity/settings/password-policy': ({ body }: { body: unknown }) =>
          refuse
            ? new Response(
                JSON.stringify({
                  status: 400,
                  detail: 'Too big',
                  errors: [{ detail: 'Too big: expected number to be <=24', pointer: '/password_history_size' }],
                }),
                { status: 400, headers: { 'content-type': 'application/problem+json' } },
              )
            : body,
      },
    });
    const policy = await screen.findByRole('form', { name: 'Password policy' });
    const minimum = within(policy).getByLabelText('Minimum length');
    await host.user.clear(minimum);
    await host.user.type(minimum, '7');
    await host.user.click(within(policy).getByRole('button', { name: 'Save password policy' }));
    expect(await within(policy).findByText('Minimum length must be 8 or more.')).toBeTruthy();
    expect(host.requests.some((r) => r.method === 'PUT')).toBe(false);

    await host.user.clear(minimum);
    await host.user.type(minimum, '16');
    await host.user.click(within(policy).getByLabelText('Require symbols'));
    await host.user.click(within(policy).getByRole('button', { name: 'Save password policy' }));
    expect(await within(policy).findByText('Too big: expected number to be <=24')).toBeTruthy();

    refuse = false;
    await host.user.click(within(policy).getByRole('button', { name: 'Save password policy' }));
    await waitFor(() => expect(host.requests.filter((r) => r.method === 'PUT')).toHaveLength(2));
    expect(host.requests.filter((r) => r.method === 'PUT')[1]?.body).toEqual({
      ...POLICY,
      minimum_length: 16,
      require_symbols: true,
    });
    expect(await screen.findByText('Password policy saved.')).toBeTruthy();
  });

  it('saves the session timeout within 0–1440 minutes', async () => {
    const host = await renderInTestHost(<AdminSettingsPage />, {
      apis: {
        ...apis,
        'POST /v2/settings/set_setting_value': ({ body }: { body: unknown }) => ({
          success: true,
          data: (body as { value: number }).value,
        }),
      },
    });
    const form = await screen.findByRole('form', { name: 'Session timeout' });
    const minutes = within(form).getByLabelText('Session timeout (minutes)');
    await host.user.clear(minutes);
    await host.user.type(minutes, '2000');
    await host.user.click(within(form).getByRole('button', { name: 'Save session timeout' }));
    expect(await within(form).findByText('Session timeout must be 1440 or less.')).toBeTruthy();

    await host.user.clear(minutes);
    await host.user.type(minutes, '30');
    await host.user.click(within(form).getByRole('button', { name: 'Save session timeout' }));
    await waitFor(() =>
      expect(host.requests.find((r) => r.path === '/api/v2/settings/set_setting_value')?.body).toEqual({
        section: 'login',
        option: 'session-timeout',
        value: 30,
      }),
    );
    expect(await screen.findByText('Session timeout saved.')).toBeTruthy();
  });
});
