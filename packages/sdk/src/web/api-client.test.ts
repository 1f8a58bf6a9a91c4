import { describe, expect, it, vi } from 'vitest';
import { createApiClient, EFFECTIVE_ROLE_HEADER, fileNameOf, JSONAPI_MEDIA_TYPE, pageCountOf } from './api-client.js';
import { ApiRequestError } from './api-error.js';

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

function json(status: number, body: unknown, type = 'application/json') {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
}

function setup(handler: Handler, overrides: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const calls: { url: URL; init: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://atrium.test');
    calls.push({ url, init });
    return handler(url, init);
  });
  const onUnauthorized = vi.fn();
  const onForbidden = vi.fn();
  const client = createApiClient({
    baseUrl: '/api',
    getToken: () => 'tok-123',
    getEffectiveRole: async () => 'Claims Adjuster',
    onUnauthorized,
    onForbidden,
    fetch: fetchMock as typeof fetch,
    ...overrides,
  });
  return { client, calls, onUnauthorized, onForbidden };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable(),
    (e: unknown) => e as ApiRequestError,
  );

describe('API client', () => {
  it('sends the bearer token and the effective role header', async () => {
    const { client, calls } = setup(() => json(200, { ok: true }));
    await expect(client.get('/claims/', { query: { q: 'x', skip: undefined } })).resolves.toEqual({ ok: true });
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get(EFFECTIVE_ROLE_HEADER)).toBe('Claims Adjuster');
    expect(calls[0]!.url.pathname).toBe('/api/claims/');
    expect(calls[0]!.url.search).toBe('?q=x');
  });

  it('shows the response (its ETag) to onResponse before returning the body', async () => {
    const { client } = setup(
      () => new Response('{"id":1}', { status: 200, headers: { 'content-type': 'application/json', etag: 'W/"3"' } }),
    );
    let etag: string | null = null;
    await expect(client.get('/claims/1/', { onResponse: (r) => (etag = r.headers.get('etag')) })).resolves.toEqual({
      id: 1,
    });
    expect(etag).toBe('W/"3"');
  });

  it('omits the headers when there is no token or role', async () => {
    const { client, calls } = setup(() => new Response(null, { status: 204 }), {
      getToken: () => null,
      getEffectiveRole: () => undefined,
    });
    await expect(client.delete('/x')).resolves.toBeUndefined();
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has(EFFECTIVE_ROLE_HEADER)).toBe(false);
  });

  it('speaks JSON:API when asked: media type on Accept and Content-Type, JSON body', async () => {
    const { client, calls } = setup(() => json(201, { data: { type: 'claims', id: '1' } }, JSONAPI_MEDIA_TYPE));
    await client.post('/claims/', { data: { type: 'claims', attributes: { name: 'A' } } }, { jsonApi: true });
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get('Accept')).toBe(JSONAPI_MEDIA_TYPE);
    expect(headers.get('Content-Type')).toBe(JSONAPI_MEDIA_TYPE);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ data: { type: 'claims', attributes: { name: 'A' } } });
    expect(calls[0]!.init.method).toBe('POST');
  });

  describe('failures carry the spec messages', () => {
    it('400 JSON:API: the first error detail, with every error kept', async () => {
      const { client } = setup(() =>
        json(
          400,
          {
            errors: [
              {
                status: '400',
                title: 'Bad Request',
                detail: 'Name is required.',
                source: { pointer: '/data/attributes/name' },
              },
              {
                status: '400',
                title: 'Bad Request',
                detail: 'Too long.',
                source: { pointer: '/data/attributes/code' },
              },
            ],
          },
          JSONAPI_MEDIA_TYPE,
        ),
      );
      const error = await failure(client.get('/x'));
      expect(error).toBeInstanceOf(ApiRequestError);
      expect(error.status).toBe(400);
      expect(error.message).toBe('Name is required.');
      expect(error.errors.map((e) => e.pointer)).toEqual(['/data/attributes/name', '/data/attributes/code']);
    });

    it('400 problem details: the first error detail, pointers read from the entry', async () => {
      const { client } = setup(() =>
        json(
          400,
          {
            type: 'about:blank',
            status: 400,
            title: 'Bad Request',
            detail: 'Invalid input',
            errors: [{ detail: 'Expected string', pointer: '/email', code: 'invalid_type' }],
          },
          'application/problem+json',
        ),
      );
      const error = await failure(client.get('/x'));
      expect(error.message).toBe('Expected string');
      expect(error.errors[0]).toMatchObject({ detail: 'Expected string', pointer: '/email', code: 'invalid_type' });
    });

    it('400 without an error list: problem detail, else the body as text', async () => {
      const problem = setup(() =>
        json(400, { status: 400, title: 'Bad Request', detail: 'The request body is not valid JSON.' }),
      );
      expect((await failure(problem.client.get('/x'))).message).toBe('The request body is not valid JSON.');
      const text = setup(() => new Response('Bad mapping', { status: 400, headers: { 'content-type': 'text/plain' } }));
      expect((await failure(text.client.get('/x'))).message).toBe('Bad mapping');
    });

    it.each([
      [401, 'Authorization Required.'],
      [403, "Forbidden resource can't be accessed."],
      [404, 'The requested resource not found.'],
      [500, 'Internal Server Error.'],
      [409, 'Service unavailable'],
      [502, 'Service unavailable'],
      [503, 'Service unavailable'],
    ])('%i → %s', async (status, message) => {
      const { client } = setup(() => json(status, { errors: [{ detail: 'server words' }] }));
      const error = await failure(client.get('/x'));
      expect(error.status).toBe(status);
      expect(error.message).toBe(message);
    });

    it('no response: the request error message, status 0', async () => {
      const { client } = setup(() => {
        throw new TypeError('Failed to fetch');
      });
      const error = await failure(client.get('/x'));
      expect(error).toBeInstanceOf(ApiRequestError);
      expect(error.status).toBe(0);
      expect(error.message).toBe('Failed to fetch');
    });

    it('lets aborts through unchanged', async () => {
      const controller = new AbortController();
      const { client } = setup(() => {
        throw new DOMException('The operation was aborted.', 'AbortError');
      });
      controller.abort();
      const error = await failure(client.get('/x', { signal: controller.signal }));
      expect(error).not.toBeInstanceOf(ApiRequestError);
      expect((error as unknown as Error).name).toBe('AbortError');
    });
  });

  it('calls onUnauthorized on 401 and onForbidden on 403', async () => {
    const { client, onUnauthorized, onForbidden } = setup((url) => json(url.pathname.endsWith('401') ? 401 : 403, {}));
    await failure(client.get('/401'));
    await failure(client.get('/403'));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(onForbidden.mock.calls[0]![0]).toBeInstanceOf(ApiRequestError);
  });

  it('preventForbiddenRedirect: a refused operation is only thrown, unless no role is usable', async () => {
    const refused = setup(() => json(403, { errors: [{ status: '403', detail: 'Not yours.' }] }));
    await expect(refused.client.post('/x', {}, { preventForbiddenRedirect: true })).rejects.toMatchObject({
      status: 403,
    });
    expect(refused.onForbidden).not.toHaveBeenCalled();
    const noRole = setup(() => json(403, { ingress_denied: true, annotation: 'no-effective-role' }));
    await failure(noRole.client.get('/x', { preventForbiddenRedirect: true }));
    expect(noRole.onForbidden).toHaveBeenCalledTimes(1);
  });

  it('marks ingress-denied 403s from either error shape', async () => {
    const jsonApi = setup(() =>
      json(403, {
        errors: [
          {
            status: '403',
            title: "Forbidden resource can't be accessed.",
            code: 'no-effective-role',
            meta: { ingress_denied: true, annotation: 'no-effective-role' },
          },
        ],
      }),
    );
    const a = await failure(jsonApi.client.get('/x'));
    expect(a).toMatchObject({
      ingressDenied: true,
      annotation: 'no-effective-role',
      message: "Forbidden resource can't be accessed.",
    });

    const problem = setup(() =>
      json(403, {
        status: 403,
        title: 'Forbidden',
        ingress_denied: true,
        annotation: 'no-role-assignment',
        errors: [],
      }),
    );
    expect(await failure(problem.client.get('/x'))).toMatchObject({
      ingressDenied: true,
      annotation: 'no-role-assignment',
    });

    const plain = setup(() => json(403, { status: 403, title: 'Forbidden', code: 'denied', errors: [] }));
    expect((await failure(plain.client.get('/x'))).ingressDenied).toBe(false);
  });
});

describe('jsonApiFetchAll', () => {
  function pagedServer(total: number, mode: 'meta' | 'links') {
    return (url: URL) => {
      const number = Number(url.searchParams.get('page[number]'));
      const size = Number(url.searchParams.get('page[size]'));
      const pages = Math.max(1, Math.ceil(total / size));
      const data = Array.from({ length: Math.max(0, Math.min(size, total - (number - 1) * size)) }, (_, i) => ({
        type: 'claims',
        id: String((number - 1) * size + i + 1),
      }));
      const body =
        mode === 'meta'
          ? { data, meta: { count: total, pages }, included: [{ type: 'users', id: 'u1' }] }
          : { data, links: { last: `/api/claims/?status=open&page%5Bnumber%5D=${pages}&page%5Bsize%5D=${size}` } };
      return json(200, body, JSONAPI_MEDIA_TYPE);
    };
  }

  it('fetches page 1, then all remaining pages in parallel, in page order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const server = pagedServer(23, 'meta');
    const { client, calls } = setup(async (url) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return server(url);
    });
    const result = await client.jsonApiFetchAll('/claims/', { pageSize: 5, query: { status: 'open' } });
    expect(result.data.map((r) => r.id)).toEqual(Array.from({ length: 23 }, (_, i) => String(i + 1)));
    expect(result.count).toBe(23);
    expect(result.included).toEqual([{ type: 'users', id: 'u1' }]);
    expect(calls.map((c) => c.url.searchParams.get('page[number]'))).toEqual(['1', '2', '3', '4', '5']);
    expect(
      calls.every((c) => c.url.searchParams.get('status') === 'open' && c.url.searchParams.get('page[size]') === '5'),
    ).toBe(true);
    // Page 1 alone first, then pages 2–5 together.
    expect(maxInFlight).toBe(4);
  });

  it('reads the page count from links.last when meta.pages is absent', async () => {
    const { client, calls } = setup(pagedServer(7, 'links'));
    const result = await client.jsonApiFetchAll('/claims/', { pageSize: 3 });
    expect(result.data).toHaveLength(7);
    expect(calls).toHaveLength(3);
  });

  it('uses the spec page size of 250 by default and stops after one page when that is all', async () => {
    const { client, calls } = setup(pagedServer(10, 'meta'));
    await client.jsonApiFetchAll('/claims/');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url.searchParams.get('page[size]')).toBe('250');
  });

  it('fails as a whole when any page fails', async () => {
    const server = pagedServer(10, 'meta');
    const { client } = setup((url) => (url.searchParams.get('page[number]') === '2' ? json(500, {}) : server(url)));
    await expect(client.jsonApiFetchAll('/claims/', { pageSize: 5 })).rejects.toMatchObject({ status: 500 });
  });

  it('pageCountOf falls back to 1', () => {
    expect(pageCountOf({ data: [] })).toBe(1);
    expect(pageCountOf({ data: [], links: { last: '/x?page[number]=abc' } })).toBe(1);
    expect(pageCountOf({ data: [], meta: { pages: 4 } })).toBe(4);
  });
});

describe('getBlob', () => {
  const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);

  it("fetches the bytes with the caller's auth and names the file from filename*", async () => {
    const { client, calls } = setup(
      () =>
        new Response(bytes, {
          status: 200,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': `attachment; filename="Schaden__bersicht.pdf"; filename*=UTF-8''Schaden%20%C3%BCbersicht.pdf`,
          },
        }),
    );
    const controller = new AbortController();
    const result = await client.getBlob('/claims/integrations/attachments/5/content/', { signal: controller.signal });
    expect(new Uint8Array(await result.blob.arrayBuffer())).toEqual(bytes);
    expect(result.fileName).toBe('Schaden übersicht.pdf');
    expect(result.contentType).toBe('application/pdf');
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get(EFFECTIVE_ROLE_HEADER)).toBe('Claims Adjuster');
    expect(headers.get('Accept')).toBe('*/*');
    expect(calls[0]!.url.pathname).toBe('/api/claims/integrations/attachments/5/content/');
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.signal).toBe(controller.signal);
  });

  it('turns a refusal into an ApiRequestError with the spec message, and 403 reaches onForbidden', async () => {
    const { client, onForbidden } = setup(() =>
      json(403, { errors: [{ status: '403', detail: 'You may not read attachments.' }] }, JSONAPI_MEDIA_TYPE),
    );
    const error = await failure(client.getBlob('/claims/integrations/attachments/5/content/'));
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 403, message: "Forbidden resource can't be accessed." });
    expect(onForbidden).toHaveBeenCalledTimes(1);
    const refused = setup(() => json(400, { errors: [{ status: '400', detail: 'Attachment not found.' }] }));
    await expect(refused.client.getBlob('/x')).rejects.toMatchObject({ status: 400, message: 'Attachment not found.' });
  });

  it('reads file names from Content-Disposition, preferring filename*', () => {
    expect(fileNameOf(`attachment; filename="a_b.txt"; filename*=UTF-8''a%22b.txt`)).toBe('a"b.txt');
    expect(fileNameOf(`attachment; filename*=utf-8'en'%E2%82%AC%20rates.csv`)).toBe('€ rates.csv');
    expect(fileNameOf('attachment; filename="say \\"hi\\".txt"')).toBe('say "hi".txt');
    expect(fileNameOf('attachment; filename=plain.txt')).toBe('plain.txt');
    // A malformed or foreign-charset filename* falls back to the plain name.
    expect(fileNameOf(`attachment; filename="fallback.txt"; filename*=UTF-8''%E2%ZZ`)).toBe('fallback.txt');
    expect(fileNameOf(`attachment; filename="fallback.txt"; filename*=ISO-8859-1''caf%E9.txt`)).toBe('fallback.txt');
    expect(fileNameOf('inline')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
