import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useE2eSession } from './browser.js';

/**
 * Issue 14, hole 8: the one Content-Security-Policy (packages/server/src/http/security-headers.ts)
 * must let every module work. Signed in as the administrator, the test opens each module page
 * linked from All Modules, My Account and the policy editor (Monaco, loaded lazily, with its editor
 * and JSON workers) and fails on any `securitypolicyviolation` event or console CSP error.
 */
describe('every module works under the Content-Security-Policy', () => {
  const session = useE2eSession('csp');

  async function watchViolations(page: Page): Promise<string[]> {
    const violations: string[] = [];
    await page.context().exposeBinding('__reportCspViolation', (_source, text: string) => {
      violations.push(text);
    });
    await page.context().addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
        report?.(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} on ${location.pathname}`);
      });
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
    });
    return violations;
  }

  it('opens each module page and the Monaco editor without a violation', async () => {
    const page = await session.signIn('admin@atrium.test', '/');
    const violations = await watchViolations(page);
    // All Modules (the home page) links each module's main page.
    await page.getByRole('heading', { name: 'All Modules' }).waitFor();
    // The sign-in page loaded before the listener: load the home page again under it.
    await page.reload();
    await page.getByRole('heading', { name: 'All Modules' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Claims' }).first().waitFor();
    const hrefs = await page
      .getByRole('main')
      .getByRole('link')
      .evaluateAll((links) => [
        ...new Set(
          links
            .map((link) => new URL((link as HTMLAnchorElement).href))
            .filter((url) => url.origin === location.origin && !url.pathname.startsWith('/login'))
            .map((url) => url.pathname),
        ),
      ]);
    expect(hrefs).toEqual(expect.arrayContaining(['/claims', '/lines', '/access', '/users']));
    const visited: string[] = [];
    for (const path of ['/', ...hrefs, '/access/policies', '/account']) {
      await page.goto(`${session.server.url}${path}`);
      await page.getByRole('main').first().waitFor();
      await page.waitForLoadState('networkidle');
      visited.push(path);
    }

    // Monaco in the policy editor: its chunk, its styles and its workers.
    await page.goto(`${session.server.url}/access/policies/new`);
    await page.getByRole('heading', { name: 'New policy' }).waitFor();
    // Monaco draws the starting statements, coloured by its tokenizer.
    await page.getByText('"resources": ["ui:claims"]').waitFor({ timeout: 30_000 });
    await page.getByText('The policy is valid.').waitFor();
    await page.waitForLoadState('networkidle');

    expect({ visited, violations }).toEqual({ visited, violations: [] });
    expect(session.errors).toEqual([]);
  });
});
