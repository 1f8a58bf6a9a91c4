import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * The API as the user signed in on `page`: a call made in the page with its stored token (for set-up
 * and checks beside the screens). Throws with the answer on a non-2xx.
 */
async function pageApi(page: Page) {
  await page.waitForFunction(() => localStorage.getItem('atrium.identity.session')?.includes('accessToken'));
  return <T = any>(method: string, url: string, body?: unknown) =>
    page.evaluate(
      async ({ method, url, body }) => {
        const token = (JSON.parse(localStorage.getItem('atrium.identity.session') ?? '{}') as { accessToken?: string })
          .accessToken;
        const response = await fetch(`/api${url}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
        return (text ? JSON.parse(text) : null) as unknown;
      },
      { method, url, body },
    ) as Promise<T>;
}

/**
 * From a deployed rule to a quote: the author publishes an effective date on the projects page (the
 * server refusing it first without a deployment), exports the project, imports the file as a new
 * project and syncs it with lines; an agent's quote of that date shows the deployed UI-control rule. A file of its own, beside rules.e2e.test.ts (the slowest
 * e2e file), so that the two run side by side. Re-runnable: each run adds a later effective date of
 * the Homeowners rules and a rule with a name of its own.
 */
describe('rules: publish, export, and the rule on a quote', () => {
  const session = useE2eSession('rules-publish');

  it('publishes a deployed effective date from the screen (the server refuses one without a deployment), exports the project, imports the file and syncs the copy, and an agent sees the rule on a quote of that date', async () => {
    const page = await session.signIn('author@atrium.test', '/rules');
    const api = await pageApi(page);
    const finished = async (started: { id: string }) => {
      for (;;) {
        const job = await api(`GET`, `/rules/job/${started.id}/`);
        if (job.status !== 'NEW' && job.status !== 'IN_PROGRESS') return job;
        await page.waitForTimeout(200);
      }
    };

    // Set up by the API (the authoring screens have their own journey): a new effective date of the
    // Homeowners rules after every date the project has (re-runnable: each run adds a later one),
    // without the rules earlier runs left, and a UI-control rule of this run on it, committed.
    const project = (await api('GET', '/rules/projects/')).results.find((p: any) => p.name === 'homeowners_rules');
    const known = [
      ...(await api('GET', `/rules/projects/${project.id}/effective-dates/`)).results,
      ...(await api('GET', `/rules/projects/${project.id}/effective-dates/?state=archived`)).results,
    ].map((d: any) => d.effective_date as string);
    const latest = [...known, '2100-01-01'].sort().at(-1)!;
    const day = new Date(Date.parse(`${latest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const shown = new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    const date = await api('POST', `/rules/projects/${project.id}/effective-dates/`, { effective_date: day });
    for (const c of (await api('GET', `/rules/projects/${project.id}/effective-dates/${date.id}/components/`)).results)
      if (c.name.startsWith('e2e_')) await api('DELETE', `/rules/brl-components/${c.id}/effective-date/${date.id}/`);
    const name = `e2e_roof_${Date.now()}`;
    const message = `Roof checked by ${name}.`;
    const pkg = (await api('GET', `/rules/package/?project_id=${project.id}`)).results[0];
    await api('POST', `/rules/brl-components/effective-date/${date.id}/`, {
      package_id: pkg.id,
      name,
      label: 'E2E roof check',
      folder: 'e2e',
      component_type: 'rule',
      body: `rule ${name} "E2E roof check"\n  category ui-control\n  applies to home\n  priority 100\nwhen\n  always\nthen\n  mark roof_year invalid message '${message}'\nend\n`,
    });
    const committed = await finished(
      await api('POST', `/rules/projects/${project.id}/build/async-commit/${date.id}/`, { message: name }),
    );
    expect(committed.resultStatus).toBe('SUCCESS');

    // Publishing needs a deployment: the server's refusal is shown in the dialog.
    await page.reload();
    const card = page.getByLabel('Effective dates of Homeowners rules');
    await card.getByText(`${shown} · Draft`).waitFor();
    await card.getByRole('button', { name: `Publish ${shown} of Homeowners rules` }).click();
    const publish = page.getByRole('dialog', { name: `Publish ${shown}` });
    await expect.poll(() => publish.getByLabel('Effective date').inputValue(), { timeout: 10_000 }).toBe(day);
    await publish.getByRole('button', { name: 'Publish', exact: true }).click();
    await publish.getByText(`Effective date ${day} has no deployment; deploy a commit before publishing it.`).waitFor();
    await finished(
      await api(
        'POST',
        `/rules/projects/${project.id}/build/async-deploy/${date.id}/${committed.result.commitId}/`,
        {},
      ),
    );
    await publish.getByRole('button', { name: 'Publish', exact: true }).click();
    await publish.waitFor({ state: 'hidden' });
    await page.getByText(`Published Homeowners rules on ${shown}.`).waitFor();
    await card.getByText(`${shown} · Published`).waitFor();
    expect(await card.getByRole('button', { name: `Publish ${shown} of Homeowners rules` }).count()).toBe(0);

    // Export: a job with its progress and a Cancel while it runs, then the file to download.
    await page.getByRole('button', { name: 'Export Homeowners rules' }).click();
    const exporting = page.getByRole('dialog', { name: 'Export Homeowners rules' });
    await exporting.getByRole('button', { name: 'Export', exact: true }).click();
    await exporting.getByRole('button', { name: 'Cancel export' }).waitFor();
    const download = exporting.getByRole('button', { name: 'Download homeowners_rules-rules-export.json' });
    await download.waitFor();
    await exporting.getByText(/^Exported \d+ components in 1 package on \d+ effective dates\.$/).waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('homeowners_rules-rules-export.json');
    await page.keyboard.press('Escape');
    await exporting.waitFor({ state: 'hidden' });

    // Import: the file just downloaded becomes a new project (a name of this run's own), its dates drafts.
    const copyName = `e2e_import_${name.slice('e2e_roof_'.length)}`;
    const copyLabel = `Homeowners copy ${name.slice('e2e_roof_'.length)}`;
    await page.getByRole('button', { name: 'Import…' }).click();
    const importing = page.getByRole('dialog', { name: 'Import a rules project' });
    // (The browser is remote: the download is saved here first, then chosen as the file.)
    const saved = join(tmpdir(), `${copyName}.json`);
    await file.saveAs(saved);
    await importing.locator('input[type="file"]').setInputFiles(saved);
    await rm(saved, { force: true });
    await importing.getByLabel('Name').fill(copyName);
    await importing.getByLabel('Label').fill(copyLabel);
    await importing.getByRole('button', { name: 'Import', exact: true }).click();
    await importing
      .getByText(/^Imported \d+ components in 1 package on \d+ effective dates \(drafts\) as a new project\.$/)
      .waitFor();
    await importing.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: copyLabel }).waitFor();
    await page.getByLabel(`Effective dates of ${copyLabel}`).getByText(`${shown} · Draft`).waitFor();

    // Sync with lines as a job, from a component of the copy: its rules match the lines version in force.
    await page
      .getByRole('tree', { name: `Components of ${copyLabel}` })
      .getByRole('link', { name: 'E2E roof check' })
      .click();
    await page.getByRole('heading', { name: 'E2E roof check', level: 1 }).waitFor();
    const sync = page.getByLabel('Sync with lines');
    await sync.getByRole('button', { name: 'Sync with lines' }).click();
    await sync.getByText(/^Every rule matches lines version .+\.$/).waitFor();
    const copy = (await api('GET', '/rules/projects/')).results.find((p: any) => p.name === copyName);
    expect(copy.effective_dates.every((d: any) => d.status === 'draft')).toBe(true);
    await api('DELETE', `/rules/projects/${copy.id}/`);

    // An agent's quote of that date: the deployed rule's validation message is on the roof year.
    const agent = await session.signIn('agent@agency.test', '/quote/create');
    await agent.getByRole('heading', { level: 1, name: 'New Quote' }).waitFor();
    await agent.getByLabel('Effective date').fill(day);
    await agent.getByRole('radio', { name: /Homeowners/ }).check();
    await agent.getByLabel('Named insured').fill(`Rules ${name}`);
    await agent.getByPlaceholder('Where the risk is').fill('TX');
    await agent.getByRole('option', { name: 'TX', exact: true }).click();
    await agent.getByRole('button', { name: 'Create quote' }).click();
    await agent.waitForURL(/\/quote\/Q-\d+\/risks\/home$/);
    await agent.getByText(message).waitFor();
    expect(session.errors).toEqual([]);
  });
  it('shows a rules author the impact list when a lines draft renames a field a committed rule uses, and publishes nothing unacknowledged', async () => {
    const page = await session.signIn('author@atrium.test', '/lines/personal_auto');
    const api = await pageApi(page);

    // Personal Auto's demo draft: the vehicle's `vin` (used by the committed rule agents_keep_vin)
    // renamed — from `vin`, or on a retry from the name the first attempt left.
    const versions = await api('GET', '/lines/products/personal_auto/versions/');
    const draft = (versions.results ?? versions).find((v: any) => v.status === 'draft');
    const fieldsPath = `/lines/products/personal_auto/risk-types/vehicle/risk-fields/`;
    const fields = (await api('GET', `${fieldsPath}?version_id=${draft.id}`)).results;
    const vin = fields.find((f: any) => f.name === 'vin' || f.name.startsWith('vin_e2e_'));
    const renamed = `vin_e2e_${Date.now()}`;
    await api('PUT', `${fieldsPath}${vin.id}/?version_id=${draft.id}`, { name: renamed });
    try {
      const tree = page.getByRole('tree', { name: 'Product tree' });
      await tree.getByText('Personal Auto').first().waitFor();
      await tree
        .getByRole('treeitem')
        .filter({ hasText: 'draft' })
        .first()
        .getByRole('button')
        .filter({ hasText: /^Version/ })
        .click();
      const actions = page.getByLabel('Version actions');
      await actions.getByRole('button', { name: 'Publish', exact: true }).click();
      const impact = actions.getByLabel('Publish impact');
      await impact
        .getByText(/agents_keep_vin.*'vin'/)
        .first()
        .waitFor();
      await impact.getByRole('button', { name: 'I have reviewed the impact — publish anyway' }).waitFor();
      // Not acknowledged: the draft stays a draft.
      const after = await api('GET', '/lines/products/personal_auto/versions/');
      expect((after.results ?? after).find((v: any) => v.id === draft.id).status).toBe('draft');
    } finally {
      await api('PUT', `${fieldsPath}${vin.id}/?version_id=${draft.id}`, { name: 'vin' });
    }
    expect(session.errors).toEqual([]);
  });
});
