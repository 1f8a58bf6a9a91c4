import { createMemoryStorage } from '@atrium/sdk';
import { describe, expect, it, vi } from 'vitest';
import { createAuthStore } from '../auth/auth-store.js';
import { createHostRuntime } from '../host-runtime.js';
import { sessionFor } from '../testing/mount-host.js';

/** HostServices.access (what useCan reads): the runtime's access client, cleared on a role switch. */
describe('host access service', () => {
  it('is the access client, and forgets its answers when the effective role changes', async () => {
    const auth = createAuthStore({ storage: createMemoryStorage() });
    auth.getState().setSession(sessionFor('Jane Doe', ['Administrator', 'Claims Viewer']));
    auth.getState().setEffectiveRole('Administrator');
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const { requests } = JSON.parse(String(init?.body)) as { requests: unknown[] };
      return new Response(JSON.stringify({ results: requests.map(() => ({ evaluation: { allowed: true } })) }), {
        headers: { 'content-type': 'application/json' },
      });
    });
    const runtime = createHostRuntime({ manifests: [], auth, fetch, platform: 'other' });
    expect(runtime.services.access).toBe(runtime.access);

    const question = { resource: 'access:policy', action: 'delete' };
    await expect(runtime.services.access!.evaluate(question)).resolves.toBe(true);
    await runtime.services.access!.evaluate(question);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Headers(fetch.mock.calls[0]![1]!.headers).get('x-effective-role')).toBe('Administrator');

    auth.getState().setEffectiveRole('Claims Viewer');
    await runtime.services.access!.evaluate(question);
    auth.getState().setEffectiveRole('Administrator');
    await runtime.services.access!.evaluate(question);
    // Each switch started afresh, switching back included.
    expect(fetch).toHaveBeenCalledTimes(3);
    runtime.dispose();
  });
});
