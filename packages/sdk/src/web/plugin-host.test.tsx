// @vitest-environment jsdom
import { createContextService } from './context-service.js';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api-client.js';
import type { HostServices } from './command.js';
import {
  ActivityPanelScope,
  PLUGIN_HOST_MISSING_MESSAGE,
  PluginHostProvider,
  useActivityPanel,
  useApiClient,
  useHostServices,
  useSession,
  type ActivitySidebarSnapshot,
  type PluginHost,
  type ReadableStore,
  type SessionSnapshot,
} from './plugin-host.js';
import { fakeHostServices } from './test-services.js';

afterEach(cleanup);

/** A tiny observable value standing in for the host's zustand stores. */
function observable<T>(initial: T): ReadableStore<T> & { set(next: T): void; listeners(): number } {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      value = next;
      for (const listener of listeners) listener();
    },
    listeners: () => listeners.size,
  };
}

const signedOut: SessionSnapshot = { signedIn: false, user: null, effectiveRole: null };
const jane: SessionSnapshot = {
  signedIn: true,
  user: { id: 'u-1', username: 'jane', name: 'Jane Doe', email: 'jane@example.com', roles: ['Administrator', 'Agent'] },
  effectiveRole: 'Administrator',
};

function fakeHost() {
  const api = { get: vi.fn() } as unknown as ApiClient;
  const services = Object.assign(fakeHostServices(), { api }) as HostServices;
  const session = observable<SessionSnapshot>(signedOut);
  const activityState = observable<ActivitySidebarSnapshot>({ openPanelId: null, unsaved: new Set() });
  const setUnsaved = vi.fn((panelId: string, unsaved: boolean) => {
    const next = new Set(activityState.getSnapshot().unsaved);
    if (unsaved) next.add(panelId);
    else next.delete(panelId);
    activityState.set({ ...activityState.getSnapshot(), unsaved: next });
  });
  const context = createContextService();
  const host: PluginHost = {
    services,
    session,
    activity: { ...activityState, setUnsaved },
    contextFor: (pluginId) => context.forPlugin(pluginId),
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PluginHostProvider host={host}>{children}</PluginHostProvider>
  );
  return { host, api, services, session, activityState, setUnsaved, wrapper };
}

describe('plugin host hooks', () => {
  it('refuse to run outside the host with a message that names the way out', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useSession())).toThrow(PLUGIN_HOST_MISSING_MESSAGE);
    expect(() => renderHook(() => useHostServices())).toThrow(PLUGIN_HOST_MISSING_MESSAGE);
    vi.restoreAllMocks();
  });

  it('useHostServices and useApiClient hand out what the host provides', () => {
    const { services, api, wrapper } = fakeHost();
    const { result } = renderHook(() => ({ services: useHostServices(), api: useApiClient() }), { wrapper });
    expect(result.current.services).toBe(services);
    expect(result.current.api).toBe(api);
    result.current.services.navigate('/claims');
    expect(services.navigate).toHaveBeenCalledWith('/claims');
  });

  it('useSession follows sign-in, role changes and sign-out', () => {
    const { session, wrapper } = fakeHost();
    const { result } = renderHook(() => useSession(), { wrapper });
    expect(result.current).toEqual(signedOut);
    act(() => session.set(jane));
    expect(result.current.user?.name).toBe('Jane Doe');
    expect(result.current.effectiveRole).toBe('Administrator');
    act(() => session.set({ ...jane, effectiveRole: 'Agent' }));
    expect(result.current.effectiveRole).toBe('Agent');
    act(() => session.set(signedOut));
    expect(result.current.signedIn).toBe(false);
  });

  it('useSession re-renders a page component with the new user', () => {
    const { session, wrapper } = fakeHost();
    function Greeting() {
      const { user } = useSession();
      return <p>{user ? `Hello, ${user.name}` : 'Signed out'}</p>;
    }
    render(<Greeting />, { wrapper });
    expect(screen.getByText('Signed out')).toBeTruthy();
    act(() => session.set(jane));
    expect(screen.getByText('Hello, Jane Doe')).toBeTruthy();
  });

  it('useActivityPanel takes its id from the panel scope and reports unsaved changes', () => {
    const { activityState, setUnsaved, wrapper } = fakeHost();
    const { result } = renderHook(() => useActivityPanel(), {
      wrapper: ({ children }) =>
        wrapper({ children: <ActivityPanelScope panelId="notes">{children}</ActivityPanelScope> }),
    });
    expect(result.current).toMatchObject({ panelId: 'notes', open: false, unsaved: false });
    act(() => result.current.setUnsaved(true));
    expect(setUnsaved).toHaveBeenLastCalledWith('notes', true);
    expect(result.current.unsaved).toBe(true);
    act(() => activityState.set({ ...activityState.getSnapshot(), openPanelId: 'notes' }));
    expect(result.current.open).toBe(true);
    act(() => result.current.setUnsaved(false));
    expect(result.current.unsaved).toBe(false);
  });

  it('useActivityPanel clears a flag it set when the panel unmounts, and leaves others alone', () => {
    const { activityState, wrapper } = fakeHost();
    const notes = renderHook(() => useActivityPanel('notes'), { wrapper });
    const email = renderHook(() => useActivityPanel('outbound-email'), { wrapper });
    act(() => notes.result.current.setUnsaved(true));
    act(() => email.result.current.setUnsaved(true));
    notes.unmount();
    expect([...activityState.getSnapshot().unsaved]).toEqual(['outbound-email']);
    // A panel that never reported anything does not clear another component's flag on unmount.
    const reader = renderHook(() => useActivityPanel('outbound-email'), { wrapper });
    expect(reader.result.current.unsaved).toBe(true);
    reader.unmount();
    expect(activityState.getSnapshot().unsaved.has('outbound-email')).toBe(true);
  });

  it('useActivityPanel outside a panel needs an id', () => {
    const { wrapper } = fakeHost();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useActivityPanel(), { wrapper })).toThrow(/needs a panel id/);
    vi.restoreAllMocks();
  });

  it('unsubscribes from the host stores on unmount', () => {
    const { session, activityState, wrapper } = fakeHost();
    const view = renderHook(() => [useSession(), useActivityPanel('notes')], { wrapper });
    expect(session.listeners()).toBeGreaterThan(0);
    view.unmount();
    expect(session.listeners()).toBe(0);
    expect(activityState.listeners()).toBe(0);
  });
});
