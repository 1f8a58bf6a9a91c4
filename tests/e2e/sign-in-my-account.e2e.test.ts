import { TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@atrium/sdk/testing';
import { launchBrowser, startAppServer } from './browser.js';

/**
 * My Account → Security in a real browser against the real identity service: enrolling an
 * authenticator app from its QR code's secret, preferring it, and disabling it again after the
 * spec's confirmation, each change confirmed with the password.
 */
const PASSWORD = 'Atrium!demo1';

describe('My Account security', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/my-account/security')}`);
    await page.getByLabel('Email').fill('adjuster@atrium.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/my-account/security');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function latestCode(destination: string): Promise<string> {
    const response = await server.fetch(
      `/api/identity/dev/outbox?destination=${encodeURIComponent(destination)}&limit=1`,
    );
    const body = (await response.json()) as { messages: { code: string }[] };
    if (!body.messages[0]) throw new Error(`No code in the outbox for ${destination}`);
    return body.messages[0].code;
  }

  /** The account as the server holds it, read with the page's own token. */
  async function mfaOf(target: Page) {
    const token = await target.evaluate(
      () => (JSON.parse(localStorage.getItem('atrium.identity.session')!) as { accessToken: string }).accessToken,
    );
    const response = await server.fetch('/api/identity/session', { headers: { authorization: `Bearer ${token}` } });
    const user = (await response.json()) as {
      phone_number: string | null;
      phone_number_verified: boolean;
      mfa: { sms_mfa_enabled: boolean };
    };
    return { ...user, sms_mfa_enabled: user.mfa.sms_mfa_enabled };
  }

  const methods = () => page.getByRole('table', { name: 'MFA methods' });
  const row = (label: string) => methods().getByRole('row').filter({ hasText: label });

  async function confirmPassword(
    password = PASSWORD,
    button: string | RegExp = /Enable|Continue|Disable|Set as preferred/,
  ) {
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: button }).click();
  }

  it('shows both methods, disabled, on the profile’s security tab', async () => {
    await row('Text Message (SMS)').getByText('Disabled').waitFor();
    await row('Authenticator App').getByText('Disabled').waitFor();
    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/my-account');
    expect(await page.getByLabel('Email').inputValue()).toBe('adjuster@atrium.test');
    await page.getByRole('tab', { name: 'Security' }).click();
    await methods().waitFor();
  });

  it('enrols an authenticator app from the QR code’s secret and makes it the preferred method', async () => {
    await page.getByRole('button', { name: 'Enable Authenticator App' }).click();
    await page.waitForURL((url) => url.pathname === '/my-account/security/configure-mfa/software-token');
    await confirmPassword('Wrong-password-1', 'Continue');
    await page.getByRole('dialog').getByRole('alert').filter({ hasText: 'Incorrect username or password.' }).waitFor();
    await confirmPassword(PASSWORD, 'Continue');

    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByLabel('Code from the app').fill(new TOTP({ secret }).generate());
    await page.getByRole('button', { name: 'Verify and enable' }).click();

    await page.waitForURL((url) => url.pathname === '/my-account/security');
    await page.getByRole('status').filter({ hasText: 'Authenticator App enabled' }).waitFor();
    await row('Authenticator App').getByText('Preferred').waitFor();
    await row('Authenticator App').getByText('Enabled').waitFor();
  });

  it("disables it after 'This will disable Authenticator App MFA. Are you sure?'", async () => {
    await page.getByRole('button', { name: 'Disable Authenticator App' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disable MFA' });
    await confirm.getByText('This will disable Authenticator App MFA. Are you sure?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row('Authenticator App').getByText('Enabled').waitFor();

    await page.getByRole('button', { name: 'Disable Authenticator App' }).click();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirmPassword(PASSWORD, 'Disable');
    await page.getByRole('status').filter({ hasText: 'Authenticator App disabled' }).waitFor();
    await row('Authenticator App').getByText('Disabled').waitFor();
  });

  it('cannot enable text-message codes without a phone number', async () => {
    await page.getByRole('button', { name: 'Enable Text Message (SMS)' }).click();
    await page.waitForURL((url) => url.pathname === '/my-account/security/configure-mfa/sms');
    await page.getByText('Text-message codes need a phone number', { exact: false }).waitFor();
  });

  it('changes the phone number of an SMS MFA user: asks, disables SMS MFA first, saves, verifies the number', async () => {
    const sms = await (await browser.newContext()).newPage();
    sms.on('pageerror', (error) => errors.push(error.message));
    await sms.goto(`${server.url}/login?redirect=${encodeURIComponent('/my-account')}`);
    await sms.getByLabel('Email').fill('sms@atrium.test');
    await sms.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await sms.getByRole('button', { name: 'Sign in', exact: true }).click();
    await sms.waitForURL((url) => url.pathname === '/login/mfa');
    await sms.getByLabel('Code from the text message').fill(await latestCode('+15555550123'));
    await sms.getByRole('button', { name: 'Verify' }).click();
    await sms.waitForURL((url) => url.pathname === '/my-account');

    const form = sms.getByRole('form', { name: 'Profile' });
    await form.getByLabel('Name').fill('');
    // Enter submits from the field (a click would first blur it, and the message that appears
    // under it moves the button).
    await form.getByLabel('Name').press('Enter');
    await form.getByRole('alert').filter({ hasText: "We're sorry, but some information is missing." }).waitFor();
    await form.getByText('This field is required.').waitFor();
    await form.getByLabel('Name').fill('Sam Textmessage');

    // Cancelling the confirmation changes nothing.
    await form.getByLabel('Phone number').fill('+15555550199');
    await form.getByRole('button', { name: 'Save' }).click();
    const confirm = sms.getByRole('dialog', { name: 'Change phone number' });
    await confirm.getByText('Changing your phone number will disable SMS MFA').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await mfaOf(sms)).sms_mfa_enabled).toBe(true);

    // A wrong password cannot disable SMS MFA, so nothing is saved.
    await form.getByRole('button', { name: 'Save' }).click();
    await confirm.getByLabel('Current password').fill('Wrong-password-1');
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await form
      .getByRole('alert')
      .filter({
        hasText: 'Unable to disable SMS MFA. Your updates have not been saved to avoid loss of access to account.',
      })
      .waitFor();
    expect((await mfaOf(sms)).phone_number).toBe('+15555550123');

    await form.getByRole('button', { name: 'Save' }).click();
    await confirm.getByLabel('Current password').fill(PASSWORD);
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await sms.getByRole('status').filter({ hasText: 'SMS based MFA has been disabled.' }).waitFor();
    const after = await mfaOf(sms);
    expect(after.phone_number).toBe('+15555550199');
    expect(after.sms_mfa_enabled).toBe(false);

    const verification = sms.getByRole('form', { name: 'Verify your phone number' });
    await verification.getByLabel('Code sent to your phone number').fill(await latestCode('+15555550199'));
    await verification.getByRole('button', { name: 'Verify' }).click();
    await verification.waitFor({ state: 'detached' });
    expect((await mfaOf(sms)).phone_number_verified).toBe(true);
    await sms.context().close();
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
