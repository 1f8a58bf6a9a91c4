import type { Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { as, type TestServer } from '@atrium/sdk/testing';

/**
 * What the runtime's end-to-end files share: registering an enabled inline plugin through the API
 * (the admin screens have their own test), and an agent's fresh quote on its first risk page.
 */
export async function registerPlugin(
  server: TestServer,
  name: string,
  script: string,
  {
    slot = 'quote:risk-edit:button-row',
    enabled = true,
    configuration = { roofYear: 2020 } as Record<string, unknown>,
    html = '',
    capabilities = undefined as string[] | undefined,
    /** Other attributes of the record (palette_commands, palette_search). */
    extra = {} as Record<string, unknown>,
  } = {},
) {
  const admin = await as(server, 'admin@atrium.test', { base: '/api/integrations', mediaType: 'jsonapi' });
  const res = await admin.post('/plugins/', {
    data: {
      type: 'plugin',
      attributes: {
        name,
        plugin_slots: [{ slot_name: slot }],
        configuration,
        content: html || `<!doctype html><meta charset="utf-8"><script>${script}</script>`,
        enabled,
        ...(capabilities ? { capabilities } : {}),
        ...extra,
      },
    },
  });
  if (res.status !== 201) throw new Error(`Registering ${name} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/**
 * `registerPlugin` for one e2e file (call inside `describe`): every plugin a test registers is
 * disabled after the test, pass or fail, so a retry (CI retries once, against the same server) meets
 * none of the first attempt's plugins, buttons or toasts.
 */
export function useRegisterPlugin(server: () => TestServer) {
  const registered: string[] = [];
  afterEach(async () => {
    for (const id of registered.splice(0)) await setEnabled(server(), id, false);
  });
  return async (...args: Parameters<typeof registerPlugin>) => {
    const id = await registerPlugin(...args);
    registered.push(id);
    return id;
  };
}

/** An administrator's enable or disable, through the API. */
export async function setEnabled(server: TestServer, id: string, enabled: boolean) {
  const admin = await as(server, 'admin@atrium.test', { base: '/api/integrations', mediaType: 'jsonapi' });
  const res = await admin.patch(`/plugins/${id}`, { data: { type: 'plugin', id, attributes: { enabled } } });
  if (res.status !== 200) throw new Error(`Enabling ${id} answered ${res.status}`);
}

/** A well-behaved bridge client, written by hand (the plugin-client package is what authors use). */
export const connect = (onMessage: string) => `
window.addEventListener('message', function (event) {
  if (!event.data || event.data.atrium !== 'atrium:connect') return;
  var port = event.ports[0];
  port.onmessage = function (m) {
    var msg = m.data;
    if (msg.type === 'ping') port.postMessage({ type: 'pong', n: msg.n });
    ${onMessage}
  };
  port.postMessage({ type: 'hello', version: 1 });
});`;

/** The agent creates a Homeowners quote in TX and lands on its first risk page. */
export async function newQuote(page: Page): Promise<string> {
  await page.getByRole('heading', { level: 1, name: 'New Quote' }).waitFor();
  await page.getByLabel('Effective date').fill('2026-03-01');
  await page.getByRole('radio', { name: /Homeowners/ }).check();
  await page.getByLabel('Named insured').fill('Robin Pluginworth');
  await page.getByPlaceholder('Where the risk is').fill('TX');
  await page.getByRole('option', { name: 'TX', exact: true }).click();
  await page.getByRole('button', { name: 'Create quote' }).click();
  await page.waitForURL(/\/quote\/Q-\d+\/risks\/home$/);
  return /\/quote\/(Q-\d+)\//.exec(page.url())![1]!;
}
