// @vitest-environment jsdom
import { createContextService } from './context-service.js';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from './api-client.js';
import type { HostServices } from './command.js';
import { PluginHostProvider, type PluginHost, type SessionSnapshot } from './plugin-host.js';
import { fakeHostServices } from './test-services.js';
import { apiAccessEvaluator, useCan, type AccessEvaluator, type AccessQuestion } from './use-can.js';

afterEach(cleanup);

const session = (effectiveRole: string | null, signedIn = true): SessionSnapshot => ({
  signedIn,
  user: signedIn ? { id: 'u', username: 'u', name: 'U', email: 'u@x.test', roles: ['A', 'B'] } : null,
  effectiveRole,
});

function setup(evaluate: (question: AccessQuestion, role: string | null) => Promise<boolean>, initial = session('A')) {
  let value = initial;
  const listeners = new Set<() => void>();
  const cache = new Map<string, Promise<boolean>>();
  const calls: AccessQuestion[] = [];
  // A stand-in for the host's access client: cached per role, cleared by the host on a role switch.
  const access: AccessEvaluator = {
    evaluate(question) {
      const key = JSON.stringify([value.effectiveRole, question]);
      if (!cache.has(key)) {
        calls.push(question);
        cache.set(key, evaluate(question, value.effectiveRole));
      }
      return cache.get(key)!;
    },
    clear: () => cache.clear(),
  };
  const services = Object.assign(fakeHostServices(), { api: {} as ApiClient, access }) as HostServices;
  const host: PluginHost = {
    services,
    contextFor: (pluginId) => createContextService().forPlugin(pluginId),
    session: {
      getSnapshot: () => value,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    activity: {
      getSnapshot: () => ({ openPanelId: null, unsaved: new Set() }),
      subscribe: () => () => {},
      setUnsaved: () => {},
    },
  };
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <PluginHostProvider host={host}>{children}</PluginHostProvider>
  );
  return {
    wrapper,
    calls,
    setSession(next: SessionSnapshot) {
      value = next;
      access.clear();
      for (const listener of listeners) listener();
    },
  };
}

describe('useCan', () => {
  it('is pending, then answers from the host access client', async () => {
    const { wrapper, calls } = setup(async (q) => q.action === 'read');
    const { result } = renderHook(() => useCan('claims:claim', 'read'), { wrapper });
    expect(result.current).toEqual({ allowed: false, pending: true, error: null });
    await waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.allowed).toBe(true);
    expect(calls).toEqual([{ resource: 'claims:claim', action: 'read' }]);
  });

  it('asks once for the same question, and compares records by value', async () => {
    const { wrapper, calls } = setup(async (q) => Number(q.record?.amount ?? 0) <= 5000);
    const { result, rerender } = renderHook(
      ({ amount }: { amount: number }) => useCan('claims:payment', 'approve', { amount }),
      { wrapper, initialProps: { amount: 100 } },
    );
    await waitFor(() => expect(result.current.allowed).toBe(true));
    rerender({ amount: 100 });
    expect(result.current.allowed).toBe(true);
    rerender({ amount: 9000 });
    expect(result.current.pending).toBe(true);
    await waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.allowed).toBe(false);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({ resource: 'claims:payment', action: 'approve', record: { amount: 9000 } });
  });

  it('asks again when the effective role changes', async () => {
    const { wrapper, calls, setSession } = setup(async (_q, role) => role === 'A');
    const { result } = renderHook(() => useCan('ui:access', 'ViewModule'), { wrapper });
    await waitFor(() => expect(result.current.allowed).toBe(true));
    act(() => setSession(session('B')));
    expect(result.current.pending).toBe(true);
    await waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.allowed).toBe(false);
    act(() => setSession(session('A')));
    await waitFor(() => expect(result.current.allowed).toBe(true));
    // The cache was cleared on each switch: three questions for three roles in turn.
    expect(calls).toHaveLength(3);
  });

  it('refuses without asking when nobody is signed in, and reports a failed question', async () => {
    const signedOut = setup(async () => true, session(null, false));
    const { result } = renderHook(() => useCan('claims:claim', 'read'), { wrapper: signedOut.wrapper });
    await waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.allowed).toBe(false);
    expect(signedOut.calls).toEqual([]);

    const failing = setup(() => Promise.reject(new Error('down')));
    const failed = renderHook(() => useCan('claims:claim', 'read'), { wrapper: failing.wrapper });
    await waitFor(() => expect(failed.result.current.pending).toBe(false));
    expect(failed.result.current).toMatchObject({ allowed: false, error: new Error('down') });
  });
});

describe('apiAccessEvaluator', () => {
  it('posts one request and reads evaluation.allowed', async () => {
    const post = vi.fn(async () => ({ results: [{ evaluation: { allowed: true, reason: 'allowed-by-statement' } }] }));
    const evaluator = apiAccessEvaluator({ post } as unknown as ApiClient);
    await expect(evaluator.evaluate({ resource: 'ui:claims', action: 'ViewModule' })).resolves.toBe(true);
    expect(post).toHaveBeenCalledWith('/access/evaluations', {
      requests: [{ resource: 'ui:claims', action: 'ViewModule' }],
    });
  });
});
