import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from './browser.js';

/**
 * The Access module end to end, through the real pages against the real access and identity
 * services: an administrator creates the role 'Claims Viewer' and a custom policy (statements typed
 * into Monaco, checked inline by the server), gives the policy to the role and the role to
 * adjuster@atrium.test; the adjuster, acting as Claims Viewer, is shown only what the policy allows
 * and the access service refuses them the rest.
 */
const ROLE = 'Claims Viewer';
const POLICY = 'Claims read-only';
const STATEMENTS = JSON.stringify([
  { sid: 'SeeClaims', effect: 'allow', actions: ['ViewModule'], resources: ['ui:claims'] },
  { sid: 'ReadClaims', effect: 'allow', actions: ['read'], resources: ['claims:*'] },
]);
// Once a claims module is installed its navigation entry must show for this role as well.
const CLAIMS_MODULE_INSTALLED = existsSync(path.resolve(import.meta.dirname, '../../plugins/claims/web/plugin.ts'));

describe('Access administration', () => {
  const e2e = useE2eSession('access-admin');
  const { errors, signIn } = e2e;

  /** Picks an option of a Mantine Select or MultiSelect by its label. */
  async function choose(page: Page, label: string, option: string) {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await page.keyboard.press('Escape');
  }

  /**
   * Replaces the text in Monaco as typing would. Monaco closes brackets as they are typed; the
   * closers it added end up after the cursor, so everything after it goes.
   */
  async function replaceEditorText(page: Page, text: string) {
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
    await page.keyboard.press('ControlOrMeta+Shift+End');
    await page.keyboard.press('Delete');
  }

  const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  /** An API call made from the page with the session it holds (bearer token and effective role). */
  async function callApi(page: Page, method: string, url: string, body?: unknown) {
    return page.evaluate(
      async ({ method, url, body }) => {
        const session = JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string };
        const role = localStorage.getItem('atrium.effectiveRole') ?? '';
        const response = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${session.accessToken}`,
            'x-effective-role': role,
            'content-type': 'application/json',
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
      },
      { method, url, body },
    );
  }

  it('an administrator creates a role and a policy and assigns them', async () => {
    const page = await signIn('admin@atrium.test', '/access/roles');
    await page.waitForURL((url) => url.pathname === '/access/roles');
    await mainNav(page).getByRole('link', { name: 'Access' }).waitFor();

    // The role.
    await page.getByRole('button', { name: 'New role' }).click();
    await page.getByLabel('Role name').fill(ROLE);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Roles' }).getByRole('cell', { name: ROLE, exact: true }).waitFor();

    // The policy: statements typed into Monaco, checked inline by POST policies/validations.
    await page.getByRole('navigation', { name: 'Module' }).getByRole('link', { name: 'Access policies' }).click();
    await page.waitForURL((url) => url.pathname === '/access/policies');
    await page.getByRole('link', { name: 'New policy' }).click();
    await page.waitForURL((url) => url.pathname === '/access/policies/new');
    // The list (whose filter is also labelled Name) stays on screen until the editor's chunk loads.
    await page.getByRole('heading', { name: 'New policy' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(POLICY);
    await page.getByLabel('Description').fill('Sees the claims module and reads claims.');
    const editor = page.locator('.monaco-editor').first();
    await editor.waitFor({ timeout: 20_000 });
    await page.getByText('The policy is valid.').waitFor();

    await replaceEditorText(page, '[{ "effect": "permit", "actions": ["read"], "resources": ["claims:*"] }]');
    const validation = page.getByRole('region', { name: 'Validation' });
    await validation.getByText('/statements/0/effect').waitFor();
    // The server's message is also drawn as a marker in the editor.
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();

    await replaceEditorText(page, STATEMENTS);
    await page.getByText('The policy is valid.').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => /^\/access\/policies\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: POLICY }).waitFor();

    // The policy goes to the role, the role to the adjuster.
    await page.goto(`${e2e.server.url}/access/assignments`);
    await choose(page, 'Role', ROLE);
    await choose(page, 'Policies', POLICY);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page
      .getByRole('table', { name: 'Policy assignments' })
      .getByRole('row')
      .filter({ hasText: ROLE })
      .filter({ hasText: POLICY })
      .waitFor();

    await page.getByRole('tab', { name: 'Users in roles' }).click();
    await choose(page, 'Role', ROLE);
    // The picker offers only existing users, searched by name or e-mail as one types.
    await page.getByPlaceholder('Search users by name or e-mail').fill('adjuster');
    await page.getByRole('option', { name: /\(adjuster@atrium\.test\)$/ }).click();
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page
      .getByRole('table', { name: 'User name assignments' })
      .getByRole('row')
      .filter({ hasText: ROLE })
      .filter({ hasText: 'adjuster@atrium.test' })
      .waitFor();

    // The users list shows the new role with the adjuster's old one.
    await page.goto(`${e2e.server.url}/access/users`);
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ hasText: 'adjuster@atrium.test' })
      .filter({ hasText: ROLE })
      .waitFor();

    // Export downloads everything as a file; importing that file back changes nothing.
    await page.goto(`${e2e.server.url}/access/import-export`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^atrium-access-\d{4}-\d{2}-\d{2}\.json$/);
    // The browser is shared over a connection: save the download locally rather than read its path.
    const exported = path.join(tmpdir(), `atrium-e2e-${Date.now()}-${download.suggestedFilename()}`);
    await download.saveAs(exported);
    await page.locator('input[type=file]').setInputFiles(exported);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const imported = page.getByRole('table', { name: 'Import result' });
    await imported.waitFor();
    await expect
      .poll(() => page.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow'))
      .toBe('100');
    expect(await imported.getByRole('row').filter({ hasText: 'Roles' }).getByRole('cell').allTextContents()).toEqual([
      'Roles',
      '0',
      '0',
      expect.stringMatching(/^\d+$/),
    ]);
    await page.context().close();
  });

  // Depends on the journey above, which gives the adjuster the role.
  it('the user, acting in that role, sees only the permitted modules and the API refuses the rest', async () => {
    const page = await signIn('adjuster@atrium.test', '/');
    // Two roles now (Claims Adjuster and Claims Viewer): role select asks which one.
    await page.waitForURL((url) => url.pathname === '/login/ko_roleSelect');
    await page.getByRole('radio', { name: ROLE }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'User menu' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => localStorage.getItem('atrium.effectiveRole'))).toBe(ROLE);

    // What the navigation is built from: ViewModule on each module's UI resource, for this role.
    const evaluations = await callApi(page, 'POST', '/api/access/evaluations', {
      requests: ['claims', 'access', 'lines'].map((module) => ({ resource: `ui:${module}`, action: 'ViewModule' })),
    });
    expect(evaluations.status).toBe(200);
    const allowed = (evaluations.body as { results: { evaluation: { allowed: boolean } }[] }).results.map(
      (r) => r.evaluation.allowed,
    );
    expect(allowed).toEqual([true, false, false]);

    // The All Modules dashboard and the sidebar list what the role may view, and nothing else.
    await page.getByRole('heading', { name: 'All Modules' }).waitFor();
    const tile = (title: string) => page.locator('.atrium-module-tile').filter({ hasText: title });
    if (CLAIMS_MODULE_INSTALLED) await tile('Claims').waitFor();
    await tile('Hello').waitFor();
    expect(await tile('Access').count()).toBe(0);
    expect(await tile('Lines').count()).toBe(0);

    await tile('Hello').click();
    const nav = mainNav(page);
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    if (CLAIMS_MODULE_INSTALLED) await nav.getByRole('link', { name: 'Claims' }).waitFor();
    await nav.getByRole('link', { name: 'Hello' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Access' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Lines' }).count()).toBe(0);

    // A page of a module the role may not view leads to /forbidden …
    await page.goto(`${e2e.server.url}/access/policies`);
    await page.waitForURL((url) => url.pathname === '/forbidden');

    // … and the access service refuses its calls: 403, not an ingress denial (the role is fine).
    const policies = await callApi(page, 'GET', '/api/access/policies');
    expect(policies.status).toBe(403);
    expect(policies.body).not.toMatchObject({ ingress_denied: true });
    const createRole = await callApi(page, 'POST', '/api/access/roles', { name: 'Sneaky' });
    expect(createRole.status).toBe(403);
    // What the policy allows is allowed.
    const readClaim = await callApi(page, 'POST', '/api/access/evaluations', {
      requests: [
        { resource: 'claims:claim', action: 'read' },
        { resource: 'claims:payment', action: 'create' },
      ],
    });
    expect(
      (readClaim.body as { results: { evaluation: { allowed: boolean } }[] }).results.map((r) => r.evaluation.allowed),
    ).toEqual([true, false]);
    await page.context().close();
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
