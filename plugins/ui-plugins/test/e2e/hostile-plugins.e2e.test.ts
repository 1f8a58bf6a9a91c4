import { describe, expect, it } from 'vitest';
import { as } from '@atrium/sdk/testing';
import { useE2eSession } from '../../../../tests/e2e/browser.js';
import { connect, newQuote, setEnabled, useRegisterPlugin } from './plugin-fixtures.js';

/**
 * Issue 22 item 3, isolation proven in Chromium: hostile plugins share the quote page with a
 * friendly one. Each attack fails; a plugin that floods, hangs or never starts is stopped and its
 * slot says so; malformed messages and patches outside the risk are dropped or refused; the page,
 * its storage and the risk stay as they were, and the friendly plugin and the form keep working.
 */
describe('Hostile UI plugins in the browser', () => {
  const session = useE2eSession('ui-plugins-hostile');
  // Each test's plugins are disabled after it, so a retry meets none of them.
  const registerPlugin = useRegisterPlugin(() => session.server);

  it('cannot reach the host, cannot take the page down, and is stopped when it misbehaves', async () => {
    const { server } = session;
    // Tries everything a same-origin script could do; reports which attempts got anything.
    await registerPlugin(
      server,
      'Snoop',
      `
      var got = [];
      function attempt(name, fn) { try { var v = fn(); if (v) got.push(name + '=' + String(v).slice(0, 30)); } catch (e) {} }
      attempt('parent-dom', function () { return parent.document.body.innerHTML; });
      attempt('top-dom', function () { return top.document.title; });
      attempt('cookie', function () { return document.cookie || null; });
      attempt('local-storage', function () { return localStorage.length + 1; });
      attempt('parent-storage', function () { return parent.localStorage.length + 1; });
      attempt('session-storage', function () { return sessionStorage.length + 1; });
      attempt('popup', function () { return window.open('https://example.invalid/'); });
      attempt('top-nav', function () { top.location.href = 'https://example.invalid/'; return null; });
      // Posting to the host window instead of the port: the host never listens there.
      attempt('window-post', function () { parent.postMessage({ type: 'update-risk', call: 'x', patch: [{ op: 'replace', path: '/field_answers/zip', value: '00000' }] }, '*'); return null; });
      ${connect(`
    if (msg.type === 'welcome') port.postMessage({ type: 'toast', message: 'snoop got: ' + (got.join(', ') || 'nothing') });`)}`,
    );
    // Floods the port.
    await registerPlugin(
      server,
      'Flood',
      connect(`
    if (msg.type === 'welcome') for (var i = 0; i < 5000; i++) port.postMessage({ type: 'toast', message: 'spam ' + i });`),
    );
    // Loops forever before it says hello. (Enabled later: see below.)
    const spinner = await registerPlugin(server, 'Spinner', 'while (true) {}', { enabled: false });
    // Says hello, then hangs when its button is clicked.
    const sleeper = await registerPlugin(
      server,
      'Sleeper',
      connect(`
    if (msg.type === 'welcome') port.postMessage({ type: 'buttons', buttons: [{ id: 'z', text: 'Sleep' }] });
    if (msg.type === 'button-clicked') { while (true) {} }`),
      { enabled: false },
    );
    // Malformed messages and patches outside the risk: dropped or refused, never applied.
    await registerPlugin(
      server,
      'Garbage',
      connect(`
    if (msg.type === 'welcome') {
      port.postMessage('not an object');
      port.postMessage({ type: 'eval', code: 'alert(1)' });
      port.postMessage({ type: 'toast', message: 'x'.repeat(100000) });
      port.postMessage({ type: 'update-risk', call: 'a', patch: 'drop table' });
      port.postMessage({ type: 'update-risk', call: 'b', patch: [{ op: 'add', path: '/premium', value: '0.00' }] });
      port.postMessage({ type: 'update-risk', call: 'c', patch: [{ op: 'add', path: '/field_answers/premium', value: '0.00' }] });
      port.postMessage({ type: 'update-risk', call: 'd', patch: [{ op: 'add', path: '/field_answers/__proto__/zip', value: 'x' }] });
      port.postMessage({ type: 'update-risk', call: 'e', patch: [{ op: 'replace', path: '/field_answers/zip', value: { nested: 1 } }] });
      window.refused = 0;
    }
    if (msg.type === 'result' && !msg.ok && ++window.refused === 4) port.postMessage({ type: 'toast', message: 'garbage refused 4' });`),
    );
    await registerPlugin(
      server,
      'Friendly',
      connect(`
    if (msg.type === 'welcome') port.postMessage({ type: 'buttons', buttons: [{ id: 'f', text: 'Friendly roof' }] });
    if (msg.type === 'welcome' || msg.type === 'context') window.roof = msg.context.risk.field_answers.roof_year;
    // 2019, or 2018 when it is 2019 already, so that every click changes the risk.
    if (msg.type === 'button-clicked') port.postMessage({ type: 'update-risk', call: 'f', patch: [{ op: 'replace', path: '/field_answers/roof_year', value: window.roof === 2019 ? 2018 : 2019 }] });`),
    );

    const page = await session.signIn('agent@agency.test', '/quote/create');
    const number = await newQuote(page);
    const url = page.url();
    await page.evaluate(() => localStorage.setItem('host-secret', 'kept'));

    await page.getByText('Snoop: snoop got: nothing').waitFor();
    await page.getByText('Garbage: garbage refused 4').waitFor();
    await page.getByText('Flood was stopped').waitFor();
    await page.getByText('because it sent too many messages.').waitFor();
    // The flood's first toasts are rationed to three.
    await expect.poll(() => page.getByText(/^Flood: spam/).count()).toBeLessThanOrEqual(3);
    await page.getByRole('button', { name: 'Friendly roof' }).click();
    await page.getByText('Friendly updated the risk.').waitFor();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('2019');
    // Saved before the reloads below, so that the plugin's next start reads 2019 from the server.
    await expect
      .poll(async () => {
        const res = await (await as(server, 'agent@agency.test')).get(`/api/quote/${number}/`);
        return JSON.stringify(await res.json());
      })
      .toContain('"roof_year":2019');

    // Chromium runs the sandboxed frames of one site in one renderer process, so a plugin stuck in a
    // loop stalls its sibling plugins too (never the host page). Hence one stuck plugin per round.
    await setEnabled(server, sleeper, true);
    await page.reload();
    await page.getByRole('button', { name: 'Sleep' }).click();
    await page.getByText('Sleeper was stopped').waitFor();
    await page.getByText('because it stopped answering.').first().waitFor();
    await setEnabled(server, sleeper, false);
    await setEnabled(server, spinner, true);
    await page.reload();
    await page.getByText('Spinner was stopped').waitFor();
    await page.getByText('because it did not start in time.').first().waitFor();
    // The loop stalled its siblings too; once the spinner is disabled, trying one again works.
    await setEnabled(server, spinner, false);
    await page.getByRole('button', { name: 'Try Friendly again' }).click();
    await page.getByRole('button', { name: 'Friendly roof' }).click();
    await expect.poll(() => page.getByLabel('Roof year').inputValue()).toBe('2018');
    // The host answers and the user's own edit still saves.
    await page.getByLabel('Year built').fill('1990');
    await page.getByLabel('Year built').blur();
    await expect
      .poll(async () => {
        const res = await (await as(server, 'agent@agency.test')).get(`/api/quote/${number}/`);
        return JSON.stringify(await res.json());
      })
      .toContain('"year_built":1990');

    expect(page.url()).toBe(url);
    expect(page.context().pages()).toHaveLength(1);
    expect(await page.evaluate(() => localStorage.getItem('host-secret'))).toBe('kept');
    const agent = await as(server, 'agent@agency.test');
    const answers = (
      (await (await agent.get(`/api/quote/${number}/`)).json()) as {
        risk_quote: { risk_state: { field_answers: Record<string, unknown> } };
      }
    ).risk_quote.risk_state.field_answers;
    expect(answers).toMatchObject({ roof_year: 2018, year_built: 1990 });
    expect(answers.zip ?? null).toBeNull();
    expect(answers).not.toHaveProperty('premium');
    expect(({} as Record<string, unknown>).zip).toBeUndefined();
    await page.screenshot({ path: '/work/logs/ui-plugins-hostile.png', fullPage: true });
    expect(session.errors).toEqual([]);
  });
});
