// @vitest-environment jsdom
import {
  createRouteRef,
  definePlugin,
  PluginHostProvider,
  useActivityPanel,
  useApiClient,
  useHostServices,
  usePluginContextKey,
  useSession,
} from '@atrium/sdk';
import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createAuthStore } from './auth/auth-store.js';
import { createHostRuntime, createPluginHost } from './host-runtime.js';
import { createActivitySidebarStore, UNSAVED_NOTES_WARNING } from './shell/activity-sidebar-state.js';
import { renderHost, sessionFor } from './testing/render-host.js';

/** The SDK hooks as a plugin's page and activity panel use them, inside the real shell. */
const accountRoute = createRouteRef({ name: 'account-test:page', path: '/account-test' });

function AccountPage() {
  const { user, effectiveRole } = useSession();
  const services = useHostServices();
  const api = useApiClient();
  const [answer, setAnswer] = useState('');
  return (
    <div>
      <p>user: {user?.name ?? 'nobody'}</p>
      <p>role: {effectiveRole ?? 'none'}</p>
      <button
        onClick={() => void api.get<{ greeting: string }>('/account-test/greeting').then((r) => setAnswer(r.greeting))}
      >
        Load greeting
      </button>
      <button onClick={() => services.showToast({ message: 'Saved from the page', kind: 'success' })}>Toast</button>
      <p>answer: {answer}</p>
    </div>
  );
}

function NotesPanel() {
  const { setUnsaved, unsaved } = useActivityPanel();
  const [text, setText] = useState('');
  return (
    <div>
      <textarea
        aria-label="Note"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setUnsaved(event.target.value !== '');
        }}
      />
      <button onClick={() => (setText(''), setUnsaved(false))}>Save note</button>
      <p>{unsaved ? 'draft' : 'clean'}</p>
    </div>
  );
}

const accountPlugin = definePlugin({
  id: 'account-test',
  title: 'Account test',
  routes: [
    {
      name: accountRoute.name,
      path: accountRoute.path,
      meta: { layout: 'default' },
      loader: async () => ({ default: AccountPage }),
    },
  ],
  activityPanels: [{ id: 'notes', title: 'Notes', loader: async () => ({ default: NotesPanel }) }],
});

describe('plugin host (SDK hooks provided by the shell)', () => {
  it('gives pages the signed-in user, the effective role and the API client with both headers', async () => {
    let seen: Headers | undefined;
    const { auth } = renderHost({
      path: '/account-test',
      manifests: [accountPlugin],
      session: sessionFor('Jane Doe'),
      effectiveRole: 'Administrator',
      backend: (url, init) => {
        if (url.pathname !== '/api/account-test/greeting') return undefined;
        seen = new Headers(init?.headers);
        return Response.json({ greeting: 'hello Jane' });
      },
    });
    expect(await screen.findByText('user: Jane Doe')).toBeTruthy();
    expect(screen.getByText('role: Administrator')).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Load greeting' }).click());
    expect(await screen.findByText('answer: hello Jane')).toBeTruthy();
    expect(seen?.get('authorization')).toBe('Bearer test-token');
    expect(seen?.get('x-effective-role')).toBe('Administrator');

    act(() => auth.getState().setEffectiveRole('Adjuster'));
    expect(await screen.findByText('role: Adjuster')).toBeTruthy();

    act(() => screen.getByRole('button', { name: 'Toast' }).click());
    expect(await screen.findByText('Saved from the page')).toBeTruthy();
  });

  it('lets the notes panel report unsaved changes; the sidebar then refuses to toggle', async () => {
    const { user, runtime } = renderHost({
      path: '/account-test',
      manifests: [accountPlugin],
      session: sessionFor(),
      effectiveRole: 'Administrator',
    });
    await screen.findByText('user: Jane Doe');
    await user.click(screen.getByRole('button', { name: 'Notes' }));
    await user.type(await screen.findByRole('textbox', { name: 'Note' }), 'call the insured');
    expect(screen.getByText('draft')).toBeTruthy();
    expect(runtime.activity.getState().unsaved.has('notes')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Notes' }));
    expect(await screen.findByText(UNSAVED_NOTES_WARNING)).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(screen.getByText('clean')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Notes' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull());
  });
});

describe('createPluginHost', () => {
  it('keeps snapshots stable until what they copy changes, and never exposes the token', () => {
    const auth = createAuthStore({ storage: undefined });
    const activity = createActivitySidebarStore();
    const runtime = createHostRuntime({ manifests: [], auth, platform: 'other' });
    const host = createPluginHost(runtime.services, auth, activity, runtime.context);
    const signedOut = host.session.getSnapshot();
    expect(signedOut).toEqual({ signedIn: false, user: null, effectiveRole: null });
    expect(host.session.getSnapshot()).toBe(signedOut);

    auth.getState().setSession(sessionFor('Jane Doe', ['Administrator']));
    const signedIn = host.session.getSnapshot();
    expect(signedIn).not.toBe(signedOut);
    expect(signedIn.user).toEqual({
      id: 'u-1',
      username: 'jane',
      name: 'Jane Doe',
      email: 'jane@example.com',
      roles: ['Administrator'],
    });
    expect(JSON.stringify(signedIn)).not.toContain('test-token');
    auth.getState().touch();
    expect(host.session.getSnapshot()).toBe(signedIn);

    const sidebar = host.activity.getSnapshot();
    activity.getState().dismissWarning();
    expect(host.activity.getSnapshot()).toBe(sidebar);
    host.activity.setUnsaved('notes', true);
    expect(host.activity.getSnapshot()).not.toBe(sidebar);
    expect(host.activity.getSnapshot().unsaved.has('notes')).toBe(true);
    runtime.dispose();
  });
});

describe('usePluginContextKey', () => {
  function ScenarioPage({ scenario }: { scenario: string }) {
    usePluginContextKey('lines', 'scenarioOpen', scenario);
    return <p>{scenario}</p>;
  }

  it('holds a plugin key of the when context while its component is mounted', () => {
    const auth = createAuthStore({ storage: undefined });
    const runtime = createHostRuntime({ manifests: [], auth, platform: 'other' });
    const page = (scenario: string) => (
      <PluginHostProvider host={runtime.pluginHost}>
        <ScenarioPage scenario={scenario} />
      </PluginHostProvider>
    );
    const view = render(page('Austin'));
    expect(runtime.context.get('lines.scenarioOpen')).toBe('Austin');
    expect(runtime.context.evaluate('lines.scenarioOpen == "Austin"')).toBe(true);
    view.rerender(page('Dallas'));
    expect(runtime.context.get('lines.scenarioOpen')).toBe('Dallas');
    view.unmount();
    expect(runtime.context.get('lines.scenarioOpen')).toBeUndefined();
    expect(runtime.context.evaluate('lines.scenarioOpen')).toBe(false);
    // A plugin writes only under its own prefix, never another plugin's keys.
    runtime.pluginHost.contextFor('lines').set('claims.claimOpen', true);
    expect(runtime.context.get('claims.claimOpen')).toBeUndefined();
    expect(runtime.context.get('lines.claims.claimOpen')).toBe(true);
    runtime.dispose();
  });
});
