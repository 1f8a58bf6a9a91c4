import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * The Users module end to end, through the real pages against the real identity and access
 * services: the administrator creates a user, reads the temporary password shown once, and
 * deactivates the user; an agent opening /users is sent to /forbidden.
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

  it('an agent opening /users lands on /forbidden', async () => {
    const page = await signIn('agent@agency.test', '/users');
    await page.waitForURL((url) => url.pathname === '/forbidden', { timeout: 20_000 });
    expect(await page.getByRole('table', { name: 'Users' }).count()).toBe(0);
    await page.context().close();
  });
});
