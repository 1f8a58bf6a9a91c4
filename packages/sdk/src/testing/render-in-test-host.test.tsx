// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiRequestError } from '../web/api-error.js';
import { defineCommand } from '../web/command.js';
import { definePlugin } from '../web/define-plugin.js';
import { useApiClient, useHostServices, useSession } from '../web/plugin-host.js';
import { createRouteRef } from '../web/route-ref.js';
import { preloadTestHost, renderInTestHost } from './render-in-test-host.js';

/** A plugin page as a module would write it: SDK hooks only. */
const claimRoute = createRouteRef({ name: 'claims-test:claim', path: '/claims-test/:claimId' });

function ClaimSummary({ claimId }: { claimId: string }) {
  const api = useApiClient();
  const { user, effectiveRole } = useSession();
  const services = useHostServices();
  const [claim, setClaim] = useState<{ number: string } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api
      .get<{ number: string }>(`/claims-test/${claimId}`)
      .then(setClaim, (e: unknown) => setError((e as ApiRequestError).message));
  }, [api, claimId]);
  return (
    <section>
      <p>
        {user?.name} as {effectiveRole}
      </p>
      <p>{claim ? `Claim ${claim.number}` : error || 'loading'}</p>
      <button
        onClick={() =>
          void api
            .post('/claims-test/notes', { text: 'called the insured' })
            .then(() => services.navigate(claimRoute.link({ claimId: '7' })))
        }
      >
        Add note
      </button>
    </section>
  );
}

describe('renderInTestHost', () => {
  beforeAll(preloadTestHost);

  it('renders a page signed in with the role, against the fake API', async () => {
    const host = await renderInTestHost(<ClaimSummary claimId="42" />, {
      role: 'Adjuster',
      apis: { 'GET /claims-test/:claimId': ({ params }) => ({ number: `CLM-${params.claimId}` }) },
    });
    // Resolves once the page rendered: no findBy needed for the first paint.
    expect(screen.getByText('Jane Doe as Adjuster')).toBeTruthy();
    expect(await screen.findByText('Claim CLM-42')).toBeTruthy();
    expect(host.requests).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/api/claims-test/42', matchedBy: 'GET /claims-test/:claimId' }),
    );
    expect(host.session()).toMatchObject({ signedIn: true, effectiveRole: 'Adjuster', user: { roles: ['Adjuster'] } });
    // The page is inside the shell: sidebars and the top bar are there.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('maps API failures to the spec messages and lets handlers read the request', async () => {
    let posted: unknown;
    const host = await renderInTestHost(<ClaimSummary claimId="9" />, {
      apis: {
        '/claims-test/9': Response.json({ errors: [{ detail: 'Claim is closed' }] }, { status: 400 }),
        'POST /api/claims-test/notes': ({ body, headers }) => {
          posted = { body, role: headers.get('x-effective-role') };
          return { ok: true };
        },
      },
      routes: { [claimRoute.path]: <p>claim 7 page</p> },
    });
    expect(await screen.findByText('Claim is closed')).toBeTruthy();
    await host.user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('claim 7 page')).toBeTruthy();
    expect(posted).toEqual({ body: { text: 'called the insured' }, role: 'Administrator' });
    expect(host.location().pathname).toBe('/claims-test/7');
  });

  it('follows role switches', async () => {
    const host = await renderInTestHost(<ClaimSummary claimId="1" />, {
      role: 'Adjuster',
      apis: { '/claims-test/1': { number: '1' } },
    });
    await host.setRole('Underwriter');
    expect(await screen.findByText('Jane Doe as Underwriter')).toBeTruthy();
  });

  it('without a role nobody is signed in and the guard sends a protected page to login', async () => {
    const host = await renderInTestHost(<p>secret</p>, { role: null, path: '/claims-test/secret' });
    expect(host.location().pathname).toBe('/login');
    expect(host.location().search).toBe('?redirect=%2Fclaims-test%2Fsecret');
    expect(screen.queryByText('secret')).toBeNull();
  });

  it("installs the plugin's own manifest: its nav and commands are in the shell", async () => {
    const ran: string[] = [];
    const plugin = definePlugin({
      id: 'claims-test',
      title: 'Claims',
      routes: [
        {
          name: claimRoute.name,
          path: claimRoute.path,
          meta: { layout: 'default' },
          loader: async () => ({ default: () => <p>claim</p> }),
        },
      ],
      nav: [
        {
          id: 'claims-test.nav',
          title: 'Claims test',
          to: claimRoute,
          params: { claimId: '1' },
          area: 'main',
          order: 1,
        },
      ],
      commands: [
        defineCommand({ id: 'claims-test.reopen', title: 'Reopen Claim', run: () => void ran.push('reopen') }),
      ],
    });
    const host = await renderInTestHost(<p>dashboard</p>, { plugins: [plugin] });
    expect(await screen.findByRole('link', { name: 'Claims test' })).toBeTruthy();
    await host.services.openCommandPalette();
    await host.user.type(await screen.findByRole('combobox'), 'reopen');
    await host.user.keyboard('{Enter}');
    await waitFor(() => expect(ran).toEqual(['reopen']));
  });
});
