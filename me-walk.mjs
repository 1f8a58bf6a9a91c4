import { chromium } from 'playwright-core';
const base = process.env.BASE ?? 'http://127.0.0.1:8099';
const shots = '/work/logs/me-shots';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const problems = [];
async function as(user, width = 1440) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`${user} pageerror ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`${user} console ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${user} ${r.status()} ${r.url()}`));
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(user);
  await page.getByLabel('Password', { exact: true }).fill('Atrium!demo1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return page;
}
async function shot(page, name) {
  await page.waitForTimeout(700);
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  const iw = await page.evaluate(() => innerWidth);
  if (sw > iw) problems.push(`${name}: scrolls sideways ${sw} > ${iw}`);
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}
for (const width of [1440, 1024]) {
  const admin = await as('admin@atrium.test', width);
  for (const [path, name] of [
    ['/settings', 'settings'],
    ['/integrations/dashboard', 'integrations-dashboard'],
    ['/contacts/CON-1001', 'contact-1001'],
    ['/integrations/vendors', 'vendors'],
  ]) {
    await admin.goto(`${base}${path}`);
    await admin.getByRole('heading', { level: 1 }).first().waitFor();
    await shot(admin, `admin-${name}-${width}`);
  }
  await admin.context().close();
  const adjuster = await as('adjuster@atrium.test', width);
  await adjuster.goto(`${base}/contacts/CON-1001`);
  await adjuster.getByRole('heading', { level: 1 }).first().waitFor();
  await shot(adjuster, `adjuster-contact-${width}`);
  await adjuster.context().close();
}
console.log(problems.length ? problems.join('\n') : 'no problems');
await browser.close();
