import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import supportPlugin from '@atrium/plugin-support/server';
import settingsPlugin from '../server/plugin.js';

/** The carrier settings, written by administrators through the core's service, and the classic utility calls. */
describe('settings and the classic utility calls', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, supportPlugin, settingsPlugin] });
  });
  afterAll(() => server?.close());

  const api = (user: string) => as(server, user, { base: '/api' });
  const settings = {
    name: 'Harbour Mutual',
    website: 'https://harbour.example',
    logo_url: '/carrier-logo.svg',
    claim_prefix: 'HCL',
    policy_prefix: 'HPO',
    live_status: true,
    live_status_description: 'Production',
    product_slug: 'harbour',
  };

  it('lets an administrator change the carrier settings, which the core calls then answer', async () => {
    const admin = await api('admin@atrium.test');
    expect(await (await admin.get('/settings/carrier/')).json()).toMatchObject({
      name: 'Atrium Mutual Insurance',
      product_slug: 'atrium',
    });
    const saved = await admin('PUT', '/settings/carrier/', settings);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual(settings);

    const carrier = await (await server.fetch('/api/v2/insured/get_primary_carrier')).json();
    expect(carrier).toMatchObject({ data: { name: 'Harbour Mutual', website: 'https://harbour.example' } });
    const adjuster = await api('adjuster@atrium.test');
    expect(await (await adjuster.get('/v2/utils/meta')).json()).toMatchObject({
      data: { live_status: true, live_status_description: 'Production', claim_prefix: 'HCL' },
    });
    const slug = await adjuster.post('/v2/settings/get_setting_value', { section: 'site', option: 'product-slug' });
    expect(await slug.json()).toEqual({ success: true, data: 'harbour' });

    const bad = await admin('PUT', '/settings/carrier/', { ...settings, name: ' ', website: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(await bad.json());
    expect(text).toContain('This field is required.');
    // Nobody but administrators reads or writes them; agents are denied settings outright.
    expect((await adjuster.get('/settings/carrier/')).status).toBe(403);
    expect((await (await api('agent@agency.test'))('PUT', '/settings/carrier/', settings)).status).toBe(403);
  });

  it('answers the classic utility calls: navigation links, release info, the user profile', async () => {
    const names = async (user: string) =>
      (
        (await (await (await api(user)).get('/v2/utils/get_navigation_links')).json()) as { data: { label: string }[] }
      ).data.map((l) => l.label);
    expect(await names('admin@atrium.test')).toEqual(expect.arrayContaining(['Claims', 'Settings', 'Users', 'Notes']));
    const adjusterLinks = await names('adjuster@atrium.test');
    expect(adjusterLinks).toContain('Claims');
    expect(adjusterLinks).not.toContain('Settings');
    const agentLinks = await names('agent@agency.test');
    expect(agentLinks).toEqual(expect.arrayContaining(['New Quote', 'Policies and Quotes', 'Claims']));
    expect(agentLinks).not.toContain('BriteApps');

    const release = await (await (await api('agent@agency.test')).get('/v2/utils/get_release_info')).json();
    expect(release.data.tag).toMatch(/^\d+\.\d+\.\d+/);

    const agent = await api('agent@agency.test');
    const profile = await agent.post('/gateway?file=core.login&method=loadUserProfile', { role: 'Agent' });
    expect(await profile.json()).toMatchObject({
      success: true,
      data: { username: 'agent@agency.test', name: 'Alex Agent', effective_role: 'Agent', is_agent: true },
    });
    expect(
      (await agent.post('/gateway?file=core.login&method=loadUserProfile', { role: 'Administrator' })).status,
    ).toBe(400);
  });

  it('keeps how mass deliverables are sent per state, with the default for the rest, and answers the classic table', async () => {
    const admin = await api('admin@atrium.test');
    type Table = {
      deliverables: { deliverable: string; delivery: string; days_before: number | null; source: string }[];
    };
    const before = (await (await admin.get('/settings/mass-deliverables/TX/')).json()) as Table;
    expect(before.deliverables).toHaveLength(6);
    expect(before.deliverables.every((d) => d.source === 'default')).toBe(true);
    expect(before.deliverables.find((d) => d.deliverable === 'renewal-offer')).toMatchObject({
      delivery: 'print',
      days_before: 45,
    });

    const saved = await admin('PUT', '/settings/mass-deliverables/tx/', {
      rows: [{ deliverable: 'renewal-offer', delivery: 'print-and-email', days_before: 60 }],
    });
    expect(saved.status).toBe(200);
    const tx = ((await saved.json()) as Table).deliverables;
    expect(tx.find((d) => d.deliverable === 'renewal-offer')).toMatchObject({
      delivery: 'print-and-email',
      days_before: 60,
      source: 'state',
    });
    expect(tx.find((d) => d.deliverable === 'invoice')).toMatchObject({ source: 'default', delivery: 'email' });
    // Another state still follows the default.
    const ny = (await (await admin.get('/settings/mass-deliverables/NY/')).json()) as Table;
    expect(ny.deliverables.find((d) => d.deliverable === 'renewal-offer')).toMatchObject({ days_before: 45 });

    const classic = await admin.post('/gateway?file=settings.views&method=retrieveMassDeliverablesTable', {
      stateId: 'TX',
    });
    expect(classic.status).toBe(200);
    expect(await classic.json()).toMatchObject({
      success: true,
      data: {
        stateId: 'TX',
        deliverables: expect.arrayContaining([
          expect.objectContaining({
            deliverable: 'renewal-offer',
            deliveryName: 'Print, mail and e-mail',
            daysBefore: 60,
            inherited: false,
          }),
          expect.objectContaining({ deliverable: 'invoice', inherited: true }),
        ]),
      },
    });

    // Bad input: an unknown state, a deliverable twice, negative days, a default that leaves one out.
    expect((await admin.get('/settings/mass-deliverables/ZZ/')).status).toBe(400);
    expect(
      (await admin.post('/gateway?file=settings.views&method=retrieveMassDeliverablesTable', { stateId: 'Texas' }))
        .status,
    ).toBe(400);
    const twice = { deliverable: 'invoice', delivery: 'email', days_before: 10 };
    expect((await admin('PUT', '/settings/mass-deliverables/TX/', { rows: [twice, twice] })).status).toBe(400);
    expect(
      (await admin('PUT', '/settings/mass-deliverables/TX/', { rows: [{ ...twice, days_before: -1 }] })).status,
    ).toBe(400);
    expect((await admin('PUT', '/settings/mass-deliverables/*/', { rows: [twice] })).status).toBe(400);
    // Nothing above was half-written: TX still has its one row.
    const after = (await (await admin.get('/settings/mass-deliverables/TX/')).json()) as Table;
    expect(after.deliverables.filter((d) => d.source === 'state').map((d) => d.deliverable)).toEqual(['renewal-offer']);
    // Administrators only.
    const adjuster = await api('adjuster@atrium.test');
    expect((await adjuster.get('/settings/mass-deliverables/TX/')).status).toBe(403);
  });
});
