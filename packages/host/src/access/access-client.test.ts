import { describe, expect, it, vi } from 'vitest';
import { createAccessClient } from './access-client.js';

function fakeAccessService(allowed: (resource: string, action: string) => boolean) {
  return vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { requests: { resource: string; action: string }[] };
    return new Response(
      JSON.stringify({ results: body.requests.map((r) => ({ ...r, evaluation: allowed(r.resource, r.action) })) }),
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
      },
    );
  });
}

describe('access client', () => {
  it('asks ViewModule on ui:<module> with the caller headers, in one request per tick', async () => {
    const fetch = fakeAccessService((resource) => resource === 'ui:claims');
    const role = 'Adjuster';
    const client = createAccessClient({
      fetch,
      headers: () => ({ authorization: 'Bearer t', 'effective-role': role }),
      cacheKey: () => role,
    });
    const [claims, rules] = await Promise.all([client.canViewModule('claims'), client.canViewModule('rules')]);
    expect([claims, rules]).toEqual([true, false]);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/access/evaluations');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ authorization: 'Bearer t', 'effective-role': 'Adjuster' });
    expect(JSON.parse(String(init?.body))).toEqual({
      requests: [
        { resource: 'ui:claims', action: 'ViewModule' },
        { resource: 'ui:rules', action: 'ViewModule' },
      ],
    });
  });

  it('caches answers per effective role', async () => {
    let role = 'Employee';
    const fetch = fakeAccessService(() => role === 'Employee');
    const client = createAccessClient({ fetch, headers: () => ({}), cacheKey: () => role });
    expect(await client.canViewModule('claims')).toBe(true);
    expect(await client.canViewModule('claims')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    role = 'Agent';
    expect(await client.canViewModule('claims')).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
    role = 'Employee';
    expect(await client.canViewModule('claims')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
    client.clear();
    await client.canViewModule('claims');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('reads { allowed } evaluations too', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ results: [{ evaluation: { allowed: true } }] })));
    const client = createAccessClient({ fetch, headers: () => ({}), cacheKey: () => 'x' });
    expect(await client.canViewModule('lines')).toBe(true);
  });

  it('does not cache a failure', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(new Response('nope', { status: 503 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ results: [{ evaluation: true }] })));
    const client = createAccessClient({ fetch, headers: () => ({}), cacheKey: () => 'x' });
    await expect(client.canViewModule('notes')).rejects.toThrow('HTTP 503');
    expect(await client.canViewModule('notes')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
