import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdmission, type Admission } from './admission.js';

/** The gate on a real Fastify server with real HTTP requests; handlers finish when the test says so. */
let app: FastifyInstance;
afterEach(async () => app?.close());

async function serve(limit: number) {
  app = Fastify();
  const admission = createAdmission(limit);
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  // Requests whose client the server has seen leave (by path), for tests to wait on.
  const aborted: string[] = [];
  await app.register(async (scope) => {
    admission.apply(scope);
    scope.addHook('onRequestAbort', async (request) => {
      aborted.push(request.url);
    });
    scope.get('/work/:name', async (request) => {
      const { name } = request.params as { name: string };
      started.push(name);
      await new Promise<void>((resolve) => finish.set(name, resolve));
      return { name };
    });
    scope.get('/health', { config: { admission: false } }, async () => ({ ok: true }));
    // A download whose bytes flow for as long as the test wants: the handler itself is done at once.
    scope.get('/download', async (_request, reply) => {
      const body = new PassThrough();
      body.write('first bytes');
      finish.set('download', () => body.end());
      return reply.type('application/octet-stream').send(body);
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { admission, started, finish, base, aborted };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};
const counts = (admission: Admission) => ({ active: admission.active, waiting: admission.waiting });

describe('admission', () => {
  it('runs at most `limit` requests and lets the others in in arrival order', async () => {
    const { admission, started, finish, base } = await serve(2);
    const answers: Promise<Response>[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      answers.push(fetch(`${base}/work/${name}`));
      await until(() => admission.active + admission.waiting === answers.length);
    }
    await until(() => started.length === 2);
    expect(started).toEqual(['a', 'b']);
    expect(counts(admission)).toEqual({ active: 2, waiting: 3 });

    finish.get('b')!();
    await until(() => started.length === 3);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(counts(admission)).toEqual({ active: 2, waiting: 2 });
    for (const name of ['a', 'c']) finish.get(name)!();
    await until(() => started.length === 5);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const name of ['d', 'e']) finish.get(name)!();
    expect(await Promise.all(answers.map(async (r) => (await r).json() as Promise<{ name: string }>))).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name })),
    );
    await until(() => admission.active === 0);
    expect(counts(admission)).toEqual({ active: 0, waiting: 0 });
  });

  it('never runs a request whose client left while it waited, and gives its turn to the next', async () => {
    const { admission, started, finish, base, aborted } = await serve(1);
    const first = fetch(`${base}/work/first`);
    await until(() => started.length === 1);
    const leaving = new AbortController();
    const gone = fetch(`${base}/work/gone`, { signal: leaving.signal }).catch((error: Error) => error.name);
    await until(() => admission.waiting === 1);
    const third = fetch(`${base}/work/third`);
    await until(() => admission.waiting === 2);
    leaving.abort();
    expect(await gone).toBe('AbortError');
    // The server sees the closed socket (however long a loaded machine takes); the waiting request
    // keeps its place meanwhile.
    await until(() => aborted.includes('/work/gone'));

    finish.get('first')!();
    await until(() => started.length === 2);
    expect(started).toEqual(['first', 'third']);
    finish.get('third')!();
    expect(await (await third).json()).toEqual({ name: 'third' });
    expect(await (await first).json()).toEqual({ name: 'first' });
    await until(() => admission.active === 0);
    expect(counts(admission)).toEqual({ active: 0, waiting: 0 });
  });

  it('lets routes that opt out through while the gate is full', async () => {
    const { admission, started, finish, base } = await serve(1);
    const busy = fetch(`${base}/work/busy`);
    await until(() => started.length === 1);
    const health = await fetch(`${base}/health`);
    expect(await health.json()).toEqual({ ok: true });
    expect(counts(admission)).toEqual({ active: 1, waiting: 0 });
    finish.get('busy')!();
    await busy;
  });

  it('frees the slot when the handler has answered, not when a slow download ends', async () => {
    const { admission, started, finish, base } = await serve(1);
    const download = await fetch(`${base}/download`);
    const reader = download.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first bytes');
    const work = fetch(`${base}/work/meanwhile`);
    await until(() => started.length === 1);
    expect(started).toEqual(['meanwhile']);
    finish.get('meanwhile')!();
    expect(await (await work).json()).toEqual({ name: 'meanwhile' });
    finish.get('download')!();
    while (!(await reader.read()).done);
    expect(counts(admission)).toEqual({ active: 0, waiting: 0 });
  });
});
