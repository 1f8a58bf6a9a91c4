import { describe, expect, it } from 'vitest';
import { apiAs } from '../../../../tests/e2e/api-as.js';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * The Rules module's screens as the Product and Rules Author: projects, a component, the editor.
 *
 * CI retries a failed e2e test once against the same server, so every test here runs again on what
 * its first attempt left: records are created under names unique to the attempt, counts are read
 * before they are changed, and set-up done by API accepts what already exists.
 */
describe('rules projects', () => {
  const session = useE2eSession('rules');
  /** 1 on a test's first attempt, 2 on its retry (keyed by the test's name). */
  const attempts = new Map<string, number>();
  const attempt = (test: string) => {
    const n = (attempts.get(test) ?? 0) + 1;
    attempts.set(test, n);
    return n;
  };
  /** `1 uncommitted component` / `3 uncommitted components` → the number. */
  const UNCOMMITTED = /^(\d+) uncommitted components?$/;
  const uncommittedText = (n: number) => (n === 1 ? '1 uncommitted component' : `${n} uncommitted components`);

  it('lists the demo projects with their effective dates and components, and opens a component on another date', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Personal auto rules' }).waitFor();
    const dates = page.getByLabel('Effective dates of Personal auto rules');
    await dates.getByText('Jan 1, 2026 · Published').waitFor();
    await dates.getByText('Jul 1, 2026 · Draft').waitFor();
    const tree = page.getByRole('tree', { name: 'Components of Personal auto rules' });
    // Packages, then folders, then components.
    await tree
      .getByRole('treeitem', { name: /personal_auto_rules/ })
      .first()
      .waitFor();
    const row = tree.getByRole('treeitem', { name: /Business use: no roadside, VIN required/ });
    await row.getByText('Rule', { exact: true }).waitFor();
    await row.getByRole('link', { name: 'Business use: no roadside, VIN required' }).click();

    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByLabel('Component text').textContent(), { timeout: 10_000 })
      .toContain('hide roadside');
    await page.getByLabel('Effective date').first().click();
    await page.getByRole('option', { name: 'Jan 1, 2026 · Published' }).click();
    await page.waitForURL((url) => url.searchParams.has('effective_date'));
    // Polled: the URL changes before React renders the component at the new date.
    await expect
      .poll(() => page.getByLabel('Effective date').first().inputValue(), { timeout: 10_000 })
      .toBe('Jan 1, 2026 · Published');
    await expect
      .poll(() => page.getByLabel('Component text').textContent(), { timeout: 10_000 })
      .toContain('hide roadside');
    await page.getByRole('link', { name: 'All rules projects' }).click();
    await page.getByRole('heading', { name: 'Homeowners rules' }).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('edits a rule in Monaco: completion, a diagnostic for a wrong field name, the fix, save by shortcut, validate, tests and the diff', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const tree = page.getByRole('tree', { name: 'Components of Personal auto rules' });
    await tree.getByRole('link', { name: 'Business use: no roadside, VIN required' }).click();
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    // Uncommitted so far: none on a fresh server; on a retry, this component if the first attempt saved.
    const count = page.getByText(UNCOMMITTED);
    const before = Number(UNCOMMITTED.exec((await count.textContent()) ?? '')![1]);
    const wasUncommitted = (await page.getByText('Uncommitted', { exact: true }).count()) > 0;
    // A year of this attempt's own, so the text read back after the save is this attempt's.
    const year = 1989 + attempt('monaco');
    // Monaco is not loaded before the editor opens.
    expect(await page.locator('.monaco-editor').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.monaco-editor').first();
    await editor.locator('.view-line', { hasText: 'usage' }).first().waitFor();
    await page
      .getByRole('button', { name: /Save/ })
      .getByText(/Ctrl\+S|⌘S/)
      .waitFor();
    await page.getByText('No problems').waitFor();

    // A new condition with a field the vehicle does not have.
    await editor.locator('.view-line', { hasText: "it is true that usage = 'business'" }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('and it is true that model_');
    // Completion offers the vehicle's fields from the ontology of the effective date.
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget').getByText('model_year').first().waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.insertText('yr > 1990');
    const problems = page.getByLabel('Problems');
    await problems
      .getByText("Rule 'business_use': 'model_yr' is not a field of 'vehicle' or the risks it belongs to.")
      .waitFor();
    await editor.locator('.squiggly-error').first().waitFor();
    await expect.poll(() => page.getByRole('button', { name: /Save/ }).isEnabled(), { timeout: 10_000 }).toBe(true);

    // The fix: the diagnostic goes away.
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText(`and it is true that model_year > ${year}`);
    await problems.getByText('No problems').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText('Saved Business use: no roadside, VIN required.').waitFor();
    await page.getByText(uncommittedText(wasUncommitted ? before : before + 1), { exact: true }).waitFor();
    await page.getByText('Uncommitted', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: /Save/ }).isDisabled(), { timeout: 10_000 }).toBe(true);

    // Validate from the palette (listed with its shortcut), the tests from the toolbar: results inline.
    // (Monaco keeps F1 for its own palette: leave the editor first.)
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).click();
    await page.keyboard.press('F1');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('validate rules');
    const validate = palette.getByRole('option', { name: /Validate rules/ });
    await expect.poll(() => validate.textContent(), { timeout: 10_000 }).toContain('Alt+Shift+V');
    await validate.click();
    await page.getByText('The effective date validates: no problems.').waitFor();
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page.getByRole('table', { name: 'Test results' }).waitFor();
    await page.getByText(/^\d of 2 tests passed$/).waitFor();

    // The uncommitted change side by side: as last committed, and the text in the editor.
    await page.getByRole('button', { name: 'Show changes' }).click();
    const changes = page.getByRole('dialog', { name: 'Uncommitted changes' });
    await changes.getByText('Left: as last committed. Right: the text in the editor.').waitFor();
    await changes.locator('.monaco-diff-editor .line-insert').first().waitFor();
    await page.keyboard.press('Escape');
    await changes.waitFor({ state: 'hidden' });

    // Saved: read again, the text has the new condition.
    await page.reload();
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    await expect
      .poll(() => page.getByLabel('Component text').textContent(), { timeout: 10_000 })
      .toContain(`and it is true that model_year > ${year}`);

    // Saved and not committed: the author's My work lists it and leads back to it.
    await page.goto(page.url().replace(/\/rules\/.*$/, '/'));
    const uncommitted = page
      .getByRole('region', { name: 'My work' })
      .getByRole('link', { name: 'Business use: no roadside, VIN required' });
    await uncommitted.click({ timeout: 60_000 });
    await page.getByRole('heading', { name: 'Business use: no roadside, VIN required', level: 1 }).waitFor();
    expect(session.errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('leads the author from a failed rule test in My work to the test in the editor', async () => {
    // Set up by API, as the author would in the editor: a test expecting an issue no rule raises, run.
    const api = await apiAs(session.server, 'author@atrium.test');
    const json = async (method: string, path: string, body?: unknown) => (await api(method, path, body)).json();
    const projects = await json('GET', '/api/rules/projects/');
    const project = projects.results.find((p: { name: string }) => p.name === 'personal_auto_rules');
    const components = await json('GET', `/api/rules/brl-components/?project_id=${project.id}`);
    const target = components.results.find((c: { component_type: string }) => c.component_type === 'test');
    const { body: original } = await json('GET', `/api/rules/brl-components/${target.id}/`);
    const test = JSON.parse(original);
    const runTests = async (body: unknown) => {
      const { id } = await json('POST', `/api/rules/projects/${project.id}/build/async-test/`, body);
      await expect
        .poll(async () => (await json('GET', `/api/rules/job/${id}/`)).status, { timeout: 30_000 })
        .toBe('COMPLETED');
    };
    await json('PUT', `/api/rules/brl-components/${target.id}/`, {
      body: JSON.stringify({ ...test, expect: { ...test.expect, issues: ['no_such_issue'] } }),
    });
    try {
      await runTests({});
      const page = await session.signIn('author@atrium.test', '/');
      const card = page.getByRole('region', { name: 'My work' }).getByRole('region', { name: 'Failed rule tests' });
      const row = card.getByRole('listitem').filter({ hasText: target.label });
      await row.getByText('Personal auto rules · 1 difference').waitFor({ timeout: 60_000 });
      await row.getByRole('link', { name: target.label }).click();
      await page.getByRole('heading', { name: target.label, level: 1 }).waitFor();
      expect(new URL(page.url()).searchParams.get('effective_date')).toBe(String(target.effective_date));
      expect(session.errors).toEqual([]);
    } finally {
      await json('PUT', `/api/rules/brl-components/${target.id}/`, { body: original });
      await runTests({ component_id: target.id });
    }
  });

  it('peeks at the template of a template use (go to definition) and sets its argument in the form', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    const tree = page.getByRole('tree', { name: 'Components of Personal auto rules' });
    await tree.getByRole('link', { name: 'Model year from 1981' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.monaco-editor').first();
    const line = editor.locator('.view-line', { hasText: 'from template minimum_model_year' });
    await line.waitFor();
    // 1981 as seeded; on a retry, what the first attempt saved.
    const args = editor.locator('.view-line', { hasText: /with\s+earliest\s+=/ }).first();
    await args.waitFor();
    const shown = /with\s+earliest\s+=\s+(\d+)/.exec((await args.textContent()) ?? '')?.[1];
    await page.getByText('No problems').waitFor();
    await line.getByText(/minimum_model_year/).click({ modifiers: ['ControlOrMeta'] });
    await page.locator('.peekview-widget').getByText('parameter earliest: number').first().waitFor();

    // The template-argument form: the value is checked, then written into the rule's tree and saved.
    await page.keyboard.press('Escape');
    const form = page.getByRole('form', { name: 'Template arguments' });
    const earliest = form.getByLabel('Earliest model year');
    await expect.poll(() => earliest.inputValue(), { timeout: 10_000 }).toBe(shown ?? '1981');
    const next = String(Number(shown ?? '1981') + 4);
    await earliest.fill(next);
    await form.getByRole('button', { name: 'Save arguments' }).click();
    await page.getByText('Saved Model year from 1981.').waitFor();
    await editor.locator('.view-line', { hasText: `with earliest = ${next}` }).waitFor();
    await page.getByLabel('Problems').getByText('No problems').waitFor();
    expect(session.errors).toEqual([]);
  });

  it("an author's journey: creates a rule, edits it in Monaco, validates, tests, commits (diff) and deploys; then disables, clones, moves, renames a folder and deletes", async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    // A component and folders of this attempt's own (a retry finds the first attempt's).
    const n = attempt('journey');
    const label = n === 1 ? 'Usage is required' : `Usage is required ${n}`;
    const name = n === 1 ? 'usage_is_required' : `usage_is_required_${n}`;
    const copy = `${label} (copy)`;
    const [copies, copied] = n === 1 ? ['copies', 'copied'] : [`copies_${n}`, `copied_${n}`];
    await page.getByRole('button', { name: 'New component in Personal auto rules' }).click();
    const create = page.getByRole('dialog', { name: 'New component in Personal auto rules' });
    await create.getByLabel('Label').fill(label);
    await expect.poll(() => create.getByLabel('Name').inputValue(), { timeout: 10_000 }).toBe(name);
    await create.getByLabel('Folder').fill('validation');
    await create.getByLabel('Applies to').first().click();
    await create.getByRole('option', { name: 'vehicle', exact: true }).click();
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: label, level: 1 }).waitFor();
    await page.getByText(`personal_auto_rules.validation.${name}`, { exact: true }).waitFor();

    // Edited in Monaco: a wrong field name is a live diagnostic, the fix clears it; saved by shortcut.
    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.monaco-editor').first();
    await editor.locator('.view-line', { hasText: /^then$/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('  make usag mandatory');
    const problems = page.getByLabel('Problems');
    await problems.getByText(/'usag'/).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText('make usage mandatory');
    await problems.getByText('No problems').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+s');
    await page.getByText(`Saved ${label}.`).waitFor();

    await page.getByRole('button', { name: /^Validate/ }).click();
    await page.getByText('The effective date validates: no problems.').waitFor();
    await page.getByRole('button', { name: /^Run tests/ }).click();
    await page.getByText(/^\d of 2 tests passed$/).waitFor();

    // Commit: the per-component diff it recorded; then deploy that commit, with progress.
    await page.getByRole('button', { name: 'Commit and deploy…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Commit and deploy' });
    await dialog.getByLabel('Commit message').fill('Usage is required on every vehicle');
    await dialog.getByRole('button', { name: 'Commit', exact: true }).click();
    await dialog.getByText(/^Committed \(commit \d+\): \d+ components? changed\.$/).waitFor();
    const diff = dialog.getByLabel('Committed changes');
    await diff.getByText(`personal_auto_rules.validation.${name}`, { exact: true }).waitFor();
    // (A retry's commit may hold the first attempt's component too.)
    await diff.getByText('+  make usage mandatory').first().waitFor();
    await dialog.getByRole('button', { name: /^Deploy commit \d+$/ }).click();
    await dialog.getByRole('progressbar', { name: 'Deploy progress' }).waitFor({ state: 'attached' });
    await dialog.getByText(/^Deployed commit \d+/).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Close editor' }).click();

    // The component's actions in the project tree.
    await page.getByRole('link', { name: 'All rules projects' }).click();
    const tree = page.getByRole('tree', { name: 'Components of Personal auto rules' });
    const row = (label: string) =>
      tree.getByRole('treeitem').filter({ has: page.getByRole('link', { name: label, exact: true }) });
    const act = async (label: string, action: string) => {
      await row(label)
        .getByRole('button', { name: `Actions for ${label}` })
        .click();
      // (By keyboard: the toast of the previous action may lie over the menu.)
      await page.getByRole('menuitem', { name: action }).press('Enter');
    };
    await act(label, 'Disable');
    await row(label).getByText('Disabled').waitFor();
    await act(label, 'Clone…');
    await page
      .getByRole('dialog', { name: `Clone ${label}` })
      .getByRole('button', { name: 'Clone' })
      .click();
    await row(copy).waitFor();
    await act(copy, 'Move…');
    const move = page.getByRole('dialog', { name: `Move ${copy}` });
    await move.getByLabel('Folder').fill(copies);
    await move.getByRole('button', { name: 'Move' }).click();
    // Renaming a folder moves what is in it.
    await tree.getByRole('button', { name: `Actions for folder ${copies}` }).click();
    await page.getByRole('menuitem', { name: 'Rename folder…' }).press('Enter');
    const rename = page.getByRole('dialog', { name: `Rename folder ${copies}` });
    await rename.getByLabel('New folder').fill(copied);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await tree.getByRole('button', { name: `Actions for folder ${copied}` }).waitFor();
    await act(copy, 'Delete…');
    await page
      .getByRole('dialog', { name: `Delete ${copy}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await row(copy).waitFor({ state: 'detached' });
    await act(label, 'Enable');
    await row(label).getByText('Disabled').waitFor({ state: 'detached' });
    expect(session.errors).toEqual([]);
  });

  it('shows a role that may only read rules: no component actions, no editing and no commit', async () => {
    // An administrator makes a read-only rules role and gives it to the adjuster.
    const admin = await session.signIn('admin@atrium.test', '/');
    await admin.waitForFunction(() => localStorage.getItem('atrium.identity.session')?.includes('accessToken'));
    const call = (method: string, url: string, body: unknown) =>
      admin.evaluate(
        async ({ method, url, body }) => {
          const token = (
            JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string }
          ).accessToken;
          const response = await fetch(url, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return { status: response.status, text: await response.text() };
        },
        { method, url, body },
      );
    // Created, or (on a retry) already there from the first attempt.
    const made = async (result: Promise<{ status: number; text: string }>) => {
      const { status, text } = await result;
      return status === 201 || /already (exists|assigned|has)/.test(text) ? 'made' : `${status}: ${text}`;
    };
    const created = await Promise.all([
      made(call('POST', '/api/access/roles', { name: 'Rules Reader' })),
      made(
        call('POST', '/api/access/policies', {
          name: 'Rules read-only',
          statements: [
            { sid: 'SeeRules', effect: 'allow', actions: ['ViewModule'], resources: ['ui:rules'] },
            { sid: 'ReadRules', effect: 'allow', actions: ['read'], resources: ['rules:project', 'rules:component'] },
          ],
        }),
      ),
    ]);
    expect(created).toEqual(['made', 'made']);
    const policies = await admin.evaluate(async () => {
      const token = (JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string })
        .accessToken;
      const response = await fetch('/api/access/policies?name=Rules%20read-only', {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { results: { id: number; name: string }[] }).results;
    });
    const policyId = policies.find((p) => p.name === 'Rules read-only')!.id;
    expect(
      await Promise.all([
        made(call('POST', '/api/access/policy-assignments', { policy_id: policyId, role: 'Rules Reader' })),
        made(
          call('POST', '/api/access/role-user-name-assignments', {
            user_name: 'adjuster@atrium.test',
            role: 'Rules Reader',
          }),
        ),
      ]),
    ).toEqual(['made', 'made']);
    await admin.context().close();

    const page = await session.signIn('adjuster@atrium.test', '/rules');
    // Two roles now: the session asks which one to use.
    await page.getByRole('radio', { name: 'Rules Reader' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    const tree = page.getByRole('tree', { name: 'Components of Personal auto rules' });
    await tree.getByRole('link', { name: 'Model year from 1981' }).waitFor();
    // Every access question answered (they are calls) before looking for what is not there.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: /^New component/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Publish / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await tree.getByRole('link', { name: 'Model year from 1981' }).click();
    await page.getByRole('heading', { name: 'Model year from 1981', level: 1 }).waitFor();
    // The arguments are shown, read-only.
    const form = page.getByRole('form', { name: 'Template arguments' });
    await expect.poll(() => form.getByLabel('Earliest model year').isDisabled(), { timeout: 10_000 }).toBe(true);
    await page.waitForLoadState('networkidle');
    for (const name of [/^Actions for/, 'Edit', 'Commit and deploy…', 'Save arguments'])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('is not shown to an underwriter', async () => {
    const page = await session.signIn('underwriter@atrium.test', '/rules');
    await page.waitForURL((url) => url.pathname === '/forbidden');
    expect(session.errors).toEqual([]);
  });
});
