import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, useE2eSession } from './browser.js';

/**
 * The Users module end to end, through the real pages against the real identity and access
 * services: the administrator creates a user, reads the temporary password shown once, and
 * deactivates the user; a user created with the Claims Adjuster role signs in and is made a claim's
 * primary adjuster (issue 15, Done-when); an agent opening /users is sent to /forbidden.
 */

describe('Users administration', () => {
  const e2e = useE2eSession('users-admin');
  const { errors, signIn } = e2e;

  it('an administrator creates a user, reads the temporary password and deactivates the user', async () => {
    const email = `robin.${Date.now()}@atrium.test`;
    const page = await signIn('admin@atrium.test', '/users/manage');
    await page.waitForURL((url) => url.pathname === '/users/manage');

    await page.getByRole('textbox', { name: /^Name/ }).fill('Robin Reviewer');
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    await page.getByRole('button', { name: 'Create user' }).click();
    const temporary = (await page.getByTestId('temporary-password').textContent({ timeout: 15_000 })) ?? '';
    expect(temporary.length).toBeGreaterThanOrEqual(12);

    // The list finds the new user, active.
    await page.goto(`${e2e.server.url}/users`);
    await page.getByRole('textbox', { name: 'Search' }).fill(email);
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
    await row.filter({ hasText: 'Active' }).waitFor();

    // Deactivated from the edit page, after the confirmation.
    await row.getByRole('link', { name: email }).click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/users/edit/${email}`);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm' });
    await confirm.getByText('Are you sure you want to deactivate this user?').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    await page.getByText('Inactive', { exact: true }).waitFor();

    // A new temporary password, shown once; then a password reset.
    await page.getByRole('button', { name: 'Set temporary password' }).click();
    await confirm.getByText('Are you sure you want to set a temporary password for this user?').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    const second = (await page.getByTestId('temporary-password').textContent()) ?? '';
    expect(second.length).toBeGreaterThanOrEqual(12);
    expect(second).not.toBe(temporary);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await confirm.getByText('Are you sure you want to reset the password of this user?').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Password reset required', { exact: true }).waitFor();

    // The server agrees: the user is inactive.
    const active = await page.evaluate(async (username) => {
      const session = JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string };
      const response = await fetch(
        `/api/identity/user-management/users?filter%5Busername%5D=${encodeURIComponent(username)}`,
        {
          headers: {
            authorization: `Bearer ${session.accessToken}`,
            'x-effective-role': localStorage.getItem('atrium.effectiveRole') ?? '',
            accept: 'application/vnd.api+json',
          },
        },
      );
      const body = (await response.json()) as { data: { attributes: { is_active: boolean } }[] };
      return body.data.map((user) => user.attributes.is_active);
    }, email);
    expect(active).toEqual([false]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('an administrator creates a user with the Claims Adjuster role, copies the temporary password, that user signs in and is given a claim', async () => {
    const email = `avery.${Date.now()}@atrium.test`;
    const page = await signIn('admin@atrium.test', '/users/manage');
    await page.waitForURL((url) => url.pathname === '/users/manage');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });

    await page.getByRole('textbox', { name: /^Name/ }).fill('Avery Adjuster');
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    // Roles come from the access module; only existing roles can be chosen.
    await page.getByRole('combobox', { name: 'Roles' }).click();
    await page.getByRole('option', { name: 'Claims Adjuster', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create user' }).click();
    const status = page.getByRole('status').filter({ hasText: 'User created' });
    await status.getByText('Roles: Claims Adjuster').waitFor({ timeout: 15_000 });
    const shown = (await page.getByTestId('temporary-password').textContent()) ?? '';
    await status.getByRole('button', { name: 'Copy password' }).click();
    await status.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);

    // The user page shows the role the user was given.
    await status.getByRole('link', { name: `Edit ${email}` }).click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/users/edit/${email}`);
    await page.getByRole('heading', { name: email }).waitFor();
    const roles = page.getByRole('combobox', { name: 'Roles' });
    await expect.poll(async () => (await page.getByText('Claims Adjuster', { exact: true }).count()) > 0).toBe(true);
    expect(await roles.count()).toBe(1);
    await page.context().close();

    // The new user signs in with the copied password and must choose their own.
    const own = await (await e2e.browser.newContext()).newPage();
    own.on('pageerror', (error) => errors.push(error.message));
    await own.goto(`${e2e.server.url}/login`);
    await own.getByLabel('Email').fill(email);
    await own.getByLabel('Password', { exact: true }).fill(copied);
    await own.getByRole('button', { name: 'Sign in', exact: true }).click();
    await own.waitForURL((url) => url.pathname === '/login/reset-password');
    await own.getByLabel('New password', { exact: true }).fill(`${DEMO_PASSWORD}-Avery7`);
    await own.getByLabel('Confirm new password').fill(`${DEMO_PASSWORD}-Avery7`);
    await own.getByRole('button', { name: 'Set password' }).click();
    await own.waitForURL((url) => url.pathname === '/');
    await own.getByRole('button', { name: 'Avery Adjuster, user menu' }).waitFor();
    // One role: the user acts in it without choosing.
    expect(await own.evaluate(() => localStorage.getItem('atrium.effectiveRole'))).toBe('Claims Adjuster');
    // All Modules offers the claims module to the new adjuster.
    await own
      .getByRole('main')
      .getByRole('link', { name: /^Claims/ })
      .first()
      .waitFor();
    await own.context().close();

    // The administrator makes the new adjuster a claim's primary adjuster from the claim's details.
    const admin = await signIn('admin@atrium.test', '/claims');
    await admin.waitForURL((url) => url.pathname === '/claims');
    const claim = await admin.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string };
      const response = await fetch('/api/claims/claims/?filter[status]=open&page[size]=1&page[number]=1&sort=-id', {
        headers: {
          authorization: `Bearer ${session.accessToken}`,
          'x-effective-role': localStorage.getItem('atrium.effectiveRole') ?? '',
          accept: 'application/vnd.api+json',
        },
      });
      const body = (await response.json()) as { data: { id: string; attributes: { number: string } }[] };
      return { id: body.data[0]!.id, number: body.data[0]!.attributes.number };
    });
    await admin.goto(`${e2e.server.url}/claims/${claim.number}/details`);
    await admin.getByRole('heading', { name: `Claim ${claim.number}` }).waitFor();
    await admin.getByRole('button', { name: 'Edit details' }).click();
    const details = admin.getByRole('dialog', { name: `Edit details of claim ${claim.number}` });
    const adjuster = details.getByRole('combobox', { name: 'Primary adjuster' });
    await adjuster.click();
    await adjuster.fill('Avery');
    await admin.getByRole('option', { name: `Avery Adjuster (${email})` }).click();
    await details.getByRole('button', { name: 'Save' }).click();
    await details.waitFor({ state: 'detached' });
    // Details shows the person and their user name; the header shows the name.
    await admin.getByText(`Avery Adjuster (${email})`, { exact: true }).waitFor();
    await admin.getByText(/Adjuster Avery Adjuster ·/).waitFor();
    await admin.getByRole('tab', { name: 'Exposures' }).click();
    await admin.getByRole('heading', { name: 'Exposures' }).waitFor();
    expect(errors).toEqual([]);
    await admin.context().close();
  }, 180_000);

  it('an administrator cannot give a role to a user who does not exist, and picks users by searching', async () => {
    const page = await signIn('admin@atrium.test', '/access/assignments');
    await page.waitForURL((url) => url.pathname === '/access/assignments');
    await page.getByRole('tab', { name: 'Users in roles' }).click();
    const users = page.getByRole('combobox', { name: 'Users' });
    await users.click();
    await users.fill('nobody@atrium');
    await page.getByText('No such user.').waitFor();
    await users.fill('casey');
    await page.getByRole('option', { name: 'Casey Adjuster (adjuster@atrium.test)' }).click();
    // The server refuses a name that is not a user, whatever a client sends.
    const refused = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string };
      const response = await fetch('/api/access/role-user-name-assignments', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.accessToken}`,
          'x-effective-role': localStorage.getItem('atrium.effectiveRole') ?? '',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ user_name: 'nobody@atrium.test', role: 'Underwriter' }),
      });
      return { status: response.status, body: (await response.json()) as { detail: string } };
    });
    expect(refused).toMatchObject({ status: 400, body: { detail: "User 'nobody@atrium.test' does not exist." } });
    await page.context().close();
  });

  it('an agent opening /users lands on /forbidden', async () => {
    const page = await signIn('agent@agency.test', '/users');
    await page.waitForURL((url) => url.pathname === '/forbidden', { timeout: 20_000 });
    expect(await page.getByRole('table', { name: 'Users' }).count()).toBe(0);
    await page.context().close();
  });

  it('an administrator adds a sign-in provider, disables it and removes it', async () => {
    const page = await signIn('admin@atrium.test', '/users');
    await page.getByRole('link', { name: 'Sign-in providers' }).click();
    await page.waitForURL((url) => url.pathname === '/users/sign-in-providers');
    await page.getByText('No sign-in providers').waitFor();

    await page.getByRole('button', { name: 'Add provider' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a sign-in provider' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Carrier SSO');
    await dialog.getByRole('textbox', { name: /^Issuer/ }).fill('https://sso.carrier.example');
    await dialog.getByRole('textbox', { name: /^Client ID/ }).fill('atrium-portal');
    await dialog.getByLabel('Client secret').fill('s3cret-from-the-provider');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page
      .getByRole('table', { name: 'Sign-in providers' })
      .getByRole('row')
      .filter({ hasText: 'Carrier SSO' });
    await row.filter({ hasText: 'Confidential (secret kept)' }).filter({ hasText: 'Enabled' }).waitFor();
    await page.screenshot({ path: '/tmp/users-sign-in-providers.png', fullPage: true });

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Carrier SSO' });
    await edit.getByLabel('Enabled (listed on the sign-in page)').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.filter({ hasText: 'Disabled' }).waitFor();

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Confirm' }).getByRole('button', { name: 'Yes' }).click();
    await page.getByText('No sign-in providers').waitFor();
    expect(errors).toEqual([]);
  });
});
