import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { as } from '@atrium/sdk/testing';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { connect, newQuote, useRegisterPlugin } from './plugin-fixtures.js';

/**
 * The runtime end to end: an enabled plugin's button appears under the quote's risk, its click
 * reaches the sandboxed plugin, and the plugin's JSON Patch changes the risk through the quote
 * page's own save; a patch the server refuses comes back to the plugin as an error.
 */
describe('UI plugin runtime in the browser', () => {
  const session = useE2eSession('ui-plugins-runtime');
  // Each test's plugins are disabled after it, so a retry meets none of them.
  const registerPlugin = useRegisterPlugin(() => session.server);

  it('an agent clicks a plugin button, the risk changes through the JSON Patch and the change is audited', async () => {
    // A name of this attempt's own: BriteApps and the audit name this attempt's plugin.
    const name = `Roof helper ${Date.now().toString(36)}`;
    const id = await registerPlugin(
      session.server,
      name,
      connect(`
    if (msg.type === 'welcome') {
      window.ctx = msg.context;
      port.postMessage({ type: 'buttons', buttons: [{ id: 'roof', text: 'Roof year ' + msg.configuration.roofYear }, { id: 'bad', text: 'Impossible roof' }] });
    }
    if (msg.type === 'context') window.ctx = msg.context;
    if (msg.type === 'button-clicked' && msg.id === 'roof')
      port.postMessage({ type: 'update-risk', call: 'c1', patch: [{ op: 'replace', path: '/field_answers/roof_year', value: 2020 }] });
    if (msg.type === 'button-clicked' && msg.id === 'bad')
      port.postMessage({ type: 'update-risk', call: 'c2', patch: [{ op: 'add', path: '/field_answers/roof_year', value: 'not a year' }] });
    if (msg.type === 'result') port.postMessage({ type: 'toast', message: msg.ok ? 'saved ' + window.ctx.riskType : 'refused: ' + msg.error });`),
    );
    const page = await session.signIn('agent@agency.test', '/quote/create');
    const number = await newQuote(page);
    await page.getByRole('button', { name: 'Roof year 2020' }).click();
    await page.getByText(`${name} updated the risk.`).waitFor();
    await page.getByText(`${name}: saved`).waitFor();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('2020');
    // Saved on the server, as the agent's own edit would be.
    const agent = await as(session.server, 'agent@agency.test');
    const quote = await (await agent.get(`/api/quote/${number}/`)).text();
    expect(quote).toContain('"roof_year":2020');
    // Audited: who, which plugin, the answers before and after, and the patch, shown under the risk.
    const changes = page.getByRole('region', { name: 'Changes by plugins to this Home' });
    await changes.getByText('Roof year: no answer → 2020').waitFor();
    await changes.getByText(new RegExp(`\\(${name} for agent@agency\\.test, `)).waitFor();
    await changes.getByRole('button', { name: 'Show the plugin’s patch' }).click();
    await changes.getByText('"path": "/field_answers/roof_year"').waitFor();
    const audit = (await (await agent.get(`/api/quote/${number}/audit/`)).json()) as {
      results: { plugin: { id: string }; patch: unknown; username: string }[];
    };
    expect(audit.results).toEqual([
      expect.objectContaining({
        plugin: { id, name },
        username: 'agent@agency.test',
        patch: [{ op: 'replace', path: '/field_answers/roof_year', value: 2020 }],
      }),
    ]);

    await page.getByRole('button', { name: 'Impossible roof' }).click();
    await page.getByText(new RegExp(`${name}: refused: `)).waitFor();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('2020');
    // A refused patch changed nothing, so the audit has still one entry.
    await expect
      .poll(async () => ((await (await agent.get(`/api/quote/${number}/audit/`)).json()) as { results: [] }).results)
      .toHaveLength(1);
    await page.screenshot({ path: '/work/logs/ui-plugins-runtime.png' });
    // BriteApps lists the apps enabled for agents, with where they appear.
    await page.goto(`${session.server.url}/briteapps`);
    const card = page.getByLabel('BriteApps').getByText(name).locator('..');
    await card.getByText('Quote · risk edit · button row').waitFor();
    expect(session.errors).toEqual([]);
  });

  it('the tutorial plugin, written with @atrium/plugin-client, sets the roof year', async () => {
    const tutorial = readFileSync(new URL('../../../../docs/third-party-plugins.md', import.meta.url), 'utf8');
    const html = /```html tutorial\n([\s\S]*?)```/.exec(tutorial)![1]!;
    const served = await fetch(`${session.server.url}/api/integrations/plugins/sdk/plugin-client.js`);
    expect(served.headers.get('content-security-policy')).toContain('sandbox allow-scripts');
    await registerPlugin(session.server, 'Roof replaced', '', { html, configuration: { year: 2024 } });
    const page = await session.signIn('agent@agency.test', '/quote/create');
    await newQuote(page);
    await page.getByRole('button', { name: 'Roof replaced this year' }).click();
    await page.getByText('Roof replaced: Roof year set to 2024').waitFor();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('2024');
    expect(session.errors).toEqual([]);
  });

  it('a plugin written for the previous portal works unchanged through the shim, under its old slot name', async () => {
    const html = readFileSync(new URL('../fixtures/legacy-roof-plugin.html', import.meta.url), 'utf8');
    const id = await registerPlugin(session.server, 'Roof matcher', '', {
      html,
      slot: 'britequote:risk-edit:button-row',
    });
    const served = await (await fetch(`${session.server.url}/api/integrations/plugins/${id}/files/index.html`)).text();
    expect(served).toContain('<script src="/api/integrations/plugins/sdk/britecore-ui-plugins.js">');
    const page = await session.signIn('agent@agency.test', '/quote/create');
    const number = await newQuote(page);
    // Its button shows once the house's year is answered (the plugin's own `visible`).
    await expect.poll(() => page.getByRole('button', { name: 'Roof as old as the house' }).count()).toBe(0);
    await page.getByLabel('Year built').fill('1987');
    await page.getByLabel('Year built').blur();
    await page.getByRole('button', { name: 'Roof as old as the house' }).click();
    await page.getByText('Roof matcher updated the risk.').waitFor();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('1987');
    // Its create-and-update-risk, in the previous portal's payload, adds a scheduled article.
    await page.getByRole('button', { name: 'Schedule a watch' }).click();
    await page.getByText('Roof matcher added a risk.').waitFor();
    const agent = await as(session.server, 'agent@agency.test');
    await expect
      .poll(async () => (await (await agent.get(`/api/quote/${number}/`)).text()).includes('"appraised_value":1900'))
      .toBe(true);
    expect(session.errors).toEqual([]);
  });

  it('create-and-update-risk adds child risks; capabilities the record lacks are refused and do nothing', async () => {
    // Default grant (read, update, create, toast): it may add risks, not navigate or call the API.
    await registerPlugin(
      session.server,
      'Jewelry',
      connect(`
    if (msg.type === 'welcome') port.postMessage({ type: 'buttons', buttons: [{ id: 'watch', text: 'Add a watch' }, { id: 'wrong', text: 'Add a home' }, { id: 'fake', text: 'Add a priceless watch' }, { id: 'go', text: 'Jewelry list' }] });
    var article = [{ op: 'add', path: '/field_answers/category', value: 'watch' }, { op: 'add', path: '/field_answers/appraised_value', value: 4200 }];
    if (msg.type === 'button-clicked' && msg.id === 'watch') port.postMessage({ type: 'create-and-update-risk', call: 'w', risks: [{ risk_type: 'scheduled_article', patch: article }] });
    if (msg.type === 'button-clicked' && msg.id === 'wrong') port.postMessage({ type: 'create-and-update-risk', call: 'h', risks: [{ risk_type: 'scheduled_article', patch: article }, { risk_type: 'home', patch: article }] });
    if (msg.type === 'button-clicked' && msg.id === 'fake') port.postMessage({ type: 'create-and-update-risk', call: 'f', risks: [{ risk_type: 'scheduled_article', patch: [{ op: 'add', path: '/field_answers/appraised_value', value: 'priceless' }] }] });
    if (msg.type === 'button-clicked' && msg.id === 'go') port.postMessage({ type: 'navigate', call: 'g', route: 'quote:quotes' });
    // Toasts are rationed (three in ten seconds): the refused priceless watch is checked on the page instead.
    if (msg.type === 'result' && msg.call !== 'f') port.postMessage({ type: 'toast', message: msg.ok ? 'made ' + JSON.stringify(msg.value) : msg.call + ' refused: ' + msg.error });`),
    );
    // Granted navigate and API reads, not risk updates.
    await registerPlugin(
      session.server,
      'Navigator',
      connect(`
    if (msg.type === 'welcome') { window.q = msg.context.quoteNumber; port.postMessage({ type: 'buttons', buttons: [{ id: 'read', text: 'Read the quote' }, { id: 'roof', text: 'Navigator roof' }, { id: 'go', text: 'All quotes' }] }); }
    if (msg.type === 'button-clicked' && msg.id === 'read') { port.postMessage({ type: 'request', call: 'q', method: 'GET', path: '/quote/' + window.q + '/' }); port.postMessage({ type: 'request', call: 'i', method: 'GET', path: '/identity/users/me' }); }
    if (msg.type === 'button-clicked' && msg.id === 'roof') port.postMessage({ type: 'update-risk', call: 'r', patch: [{ op: 'replace', path: '/field_answers/roof_year', value: 1999 }] });
    if (msg.type === 'button-clicked' && msg.id === 'go') port.postMessage({ type: 'navigate', call: 'g', route: 'quote:quotes' });
    if (msg.type === 'result' && msg.call === 'q') port.postMessage({ type: 'toast', message: 'read ' + msg.value.status + ' ' + msg.value.body.quote_number + (/Bearer|eyJ/.test(JSON.stringify(msg.value)) ? ' with a token' : '') });
    if (msg.type === 'result' && msg.call !== 'q') port.postMessage({ type: 'toast', message: msg.call + (msg.ok ? ' ok' : ' refused: ' + msg.error) });`),
      { capabilities: ['read-context', 'toast', 'navigate', 'api-read'] },
    );
    const page = await session.signIn('agent@agency.test', '/quote/create');
    const number = await newQuote(page);
    const agent = await as(session.server, 'agent@agency.test');
    const quoteText = async () => (await agent.get(`/api/quote/${number}/`)).text();

    await page.getByRole('button', { name: 'Add a watch' }).click();
    await page.getByText('Jewelry added a risk.').waitFor();
    await page.getByText(/Jewelry: made \{"riskIds":\[\d+\]\}/).waitFor();
    expect(await quoteText()).toContain('"appraised_value":4200');
    // One bad entry: nothing is created.
    await page.getByRole('button', { name: 'Add a home' }).click();
    await page
      .getByText('Jewelry: h refused: A home risk cannot go under this risk (it takes Scheduled article).')
      .waitFor();
    expect((await quoteText()).match(/"appraised_value":4200/g)).toHaveLength(1);
    // Answers the server refuses: the new risk is removed again, and its audit stays on the page.
    await page.getByRole('button', { name: 'Add a priceless watch' }).click();
    const removed = page.getByRole('region', { name: 'Changes by plugins to removed risks' });
    await removed.getByText('Scheduled article (removed)').waitFor();
    await removed.getByText(/^Added this Scheduled article/).waitFor();
    await removed.getByText(/^Removed this Scheduled article \(Jewelry for agent@agency\.test, /).waitFor();
    expect(await removed.getByText(/scheduled_article/).count()).toBe(0);
    await page.getByRole('button', { name: 'Jewelry list' }).click();
    await page
      .getByText('Jewelry: g refused: Jewelry may not do this: its record does not grant “Navigate” (navigate).', {
        exact: false,
      })
      .waitFor();
    expect(page.url()).toMatch(/\/risks\/home$/);

    // The host performs the request as the agent; the plugin sees status and body, never the token;
    // areas outside the business records are refused.
    await page.getByRole('button', { name: 'Read the quote' }).click();
    await page.getByText(`Navigator: read 200 ${number}`, { exact: true }).waitFor();
    await page
      .getByText('Navigator: i refused: Plugins may call /quote/, /lines/, /policies/, /claims/, /contacts/ only.')
      .waitFor();
    await page.getByRole('button', { name: 'Navigator roof' }).click();
    await page.getByText(/Navigator: r refused: Navigator may not do this: .*“Update the risk”/).waitFor();
    expect(await quoteText()).not.toContain('"roof_year":1999');
    await page.getByRole('button', { name: 'All quotes' }).click();
    await page.waitForURL(/\/quote$/);
    expect(session.errors).toEqual([]);
  });

  it('an agent finds an enabled plugin’s command and search result in the palette and runs them; a slow one and a disabled one add nothing', async () => {
    const name = `Roof reports ${Date.now().toString(36)}`;
    await registerPlugin(session.server, name, '', {
      capabilities: ['toast'],
      // Written with @atrium/plugin-client, as an author would.
      html: `<!doctype html><meta charset="utf-8">
<script src="/api/integrations/plugins/sdk/plugin-client.js"></script>
<script>
  AtriumPlugin.connect({
    onSearch: (query) => [
      { id: 'r', title: 'Roof report for ' + query, subtitle: 'Ages of every roof', event: 'report:' + query },
      { id: 'q', title: 'Quotes with old roofs', route: { name: 'quote:quotes' } },
      { id: 'bad', title: '<b>no route</b>', route: { name: 'no:such-route' } },
    ],
    onCommand: (id, plugin) => plugin.toast('ran ' + id),
  });
</script>`,
      extra: {
        palette_commands: [
          { id: 'summary', title: 'Summarise roof ages', shortcut: 'R A', keywords: ['roofs'] },
          { id: 'quotes', title: 'Quotes by roof age', route: { name: 'quote:quotes' } },
        ],
        palette_search: true,
      },
    });
    // Never answers a search: the palette must not wait for it.
    await registerPlugin(session.server, 'Silent search', connect(''), { extra: { palette_search: true } });
    // Floods the bridge when asked: stopped, it adds nothing now and is left out of the next opening.
    await registerPlugin(
      session.server,
      'Noisy roofs',
      connect(`if (msg.type === 'search') for (var i = 0; i < 100; i++) port.postMessage({ type: 'pong', n: -1 });`),
      { extra: { palette_commands: [{ id: 'n', title: 'Noisy roof command' }], palette_search: true } },
    );
    await registerPlugin(session.server, 'Dormant roofs', connect(''), {
      enabled: false,
      extra: { palette_commands: [{ id: 'x', title: 'Dormant roof command' }], palette_search: true },
    });

    const page = await session.signIn('agent@agency.test', '/quote');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox');
    await input.fill('roof');
    const group = palette.getByRole('group', { name });
    // The record's command, with its shortcut hint, and the plugin's answer, under the plugin's name.
    await group.getByRole('option', { name: /Summarise roof ages\s*R A/ }).waitFor();
    const result = group.getByRole('option', { name: /Roof report for roof\s*Ages of every roof/ });
    await result.waitFor();
    await group.getByRole('option', { name: 'Quotes with old roofs' }).waitFor();
    // Rendered as text; a result whose route does not exist is dropped; disabled and silent plugins add nothing.
    expect(await group.getByText('no route').count()).toBe(0);
    expect(await palette.getByText('Dormant roof command').count()).toBe(0);
    expect(await palette.getByRole('group', { name: 'Dormant roofs' }).count()).toBe(0);
    // The silent plugin's group shows "Searching…" for 1.5 s at most, then leaves.
    await expect.poll(() => palette.getByRole('group', { name: 'Silent search' }).count()).toBe(0);
    // The noisy plugin's command is listed (its record is read, not the plugin), its search floods.
    await palette
      .getByRole('group', { name: 'Noisy roofs' })
      .getByRole('option', { name: 'Noisy roof command' })
      .waitFor();
    await result.click();
    await palette.waitFor({ state: 'hidden' });
    await page.getByText(`${name}: ran report:roof`).waitFor();

    await page.keyboard.press('Control+k');
    // One load lists every plugin: once this plugin's group is there, the stopped one is left out.
    await input.fill('roof');
    await palette
      .getByRole('group', { name })
      .getByRole('option', { name: /Summarise roof ages/ })
      .waitFor();
    expect(await palette.getByText('Noisy roof command').count()).toBe(0);
    await input.fill('summarise roof');
    await palette
      .getByRole('group', { name })
      .getByRole('option', { name: /Summarise roof ages/ })
      .click();
    await page.getByText(`${name}: ran summary`).waitFor();
    // A route command navigates without loading the plugin.
    await page.goto(`${session.server.url}/briteapps`);
    await page.getByLabel('BriteApps').waitFor();
    await page.keyboard.press('Control+k');
    await input.fill('quotes by roof');
    await palette.getByRole('group', { name }).getByRole('option', { name: 'Quotes by roof age' }).click();
    await page.waitForURL(/\/quote$/);
    expect(session.errors).toEqual([]);
  });
});
