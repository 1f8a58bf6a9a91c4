import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  attributeError,
  defineResource,
  defineServerPlugin,
  paginationLinks,
  pageQuerySchema,
  parseInclude,
  resourceDocument,
  serializeDocument,
  toManyRelationship,
  toPageRequest,
  z,
} from '@atrium/sdk/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * The shared JSON:API implementation exercised through a real server: a small test plugin speaks
 * JSON:API over an in-memory list (the framework is under test here, not a module's storage).
 */
interface Widget {
  id: string;
  name: string;
  price: string;
  tagIds: string[];
}
interface Tag {
  id: string;
  label: string;
}

const tags: Tag[] = [
  { id: 't1', label: 'red' },
  { id: 't2', label: 'blue' },
];
const widgets: Widget[] = Array.from({ length: 7 }, (_, i) => ({
  id: String(i + 1),
  name: `Widget ${i + 1}`,
  price: `${i + 1}.50`,
  tagIds: i % 2 === 0 ? ['t1'] : ['t1', 't2'],
}));

const tagResource = defineResource<Tag>({ type: 'tags', id: (t) => t.id, attributes: (t) => ({ label: t.label }) });
const widgetResource = defineResource<Widget>({
  type: 'widgets',
  id: (w) => w.id,
  basePath: '/api/widgets/widgets/',
  attributes: (w) => ({ name: w.name, price: w.price }),
  relationships: {
    tags: {
      resource: () => tagResource,
      many: true,
      ids: (w) => w.tagIds,
      load: async (ids) => tags.filter((t) => ids.includes(t.id)),
    },
  },
});

const widgetAttributes = {
  name: z.string().trim().min(1, 'This field is required.').max(40),
  price: z.string().regex(/^\d+(\.\d{1,2})?$/, 'price can not have more than 2 decimal places.'),
};

const widgetsPlugin = defineServerPlugin({
  id: 'widgets',
  routes(router) {
    router.get(
      '/widgets/',
      {
        config: { access: 'public', jsonapi: true },
        schema: {
          querystring: z.strictObject({
            ...pageQuerySchema(3),
            include: z.string().optional(),
            name: z.string().optional(),
          }),
        },
      },
      async (request) => {
        const include = parseInclude(request.query.include, widgetResource);
        const page = toPageRequest(request.query);
        const matching = widgets.filter((w) => !request.query.name || w.name.includes(request.query.name));
        const { links, meta } = paginationLinks('/api/widgets/widgets/', request.query, page, matching.length);
        return serializeDocument(widgetResource, matching.slice(page.offset, page.offset + page.size), {
          include,
          links,
          meta,
        });
      },
    );
    router.post(
      '/widgets/',
      {
        config: { access: 'public', jsonapi: true },
        schema: {
          body: resourceDocument('widgets', widgetAttributes, {
            relationships: { tags: toManyRelationship('tags').optional() },
          }),
        },
      },
      async (request, reply) => {
        const attributes = request.body.data.attributes;
        if (!attributes?.name) throw attributeError('name', 'This field is required.');
        if (widgets.some((w) => w.name === attributes.name))
          throw attributeError('name', 'A widget with this name already exists.');
        const widget: Widget = {
          id: String(widgets.length + 1),
          name: attributes.name,
          price: attributes.price ?? '0',
          tagIds: request.body.data.relationships?.tags?.data.map((t) => t.id) ?? [],
        };
        widgets.push(widget);
        reply.status(201);
        return serializeDocument(widgetResource, widget);
      },
    );
    router.get(
      '/widgets/:id/',
      { config: { access: 'public', jsonapi: true }, schema: { params: z.object({ id: z.string() }) } },
      async (request) => {
        const widget = widgets.find((w) => w.id === request.params.id);
        if (!widget) throw new ApiError(404);
        return serializeDocument(widgetResource, widget);
      },
    );
    router.get('/crash/', { config: { access: 'public', jsonapi: true } }, async () => {
      throw new Error('database password is hunter2');
    });
  },
});

const JSONAPI = 'application/vnd.api+json';

describe('JSON:API through a real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [widgetsPlugin], seed: 'never' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: unknown, contentType = JSONAPI) =>
    server.fetch('/api/widgets/widgets/', {
      method: 'POST',
      headers: { 'content-type': contentType, accept: JSONAPI },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers a collection with the JSON:API media type, pagination links and meta', async () => {
    const response = await server.fetch('/api/widgets/widgets/?page[number]=2&page[size]=3&name=Widget');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSONAPI);
    const body = await response.json();
    expect(body.data.map((r: { id: string }) => r.id)).toEqual(['4', '5', '6']);
    expect(body.meta).toEqual({ count: 7, pages: 3 });
    expect(body.links.next).toBe('/api/widgets/widgets/?name=Widget&page%5Bnumber%5D=3&page%5Bsize%5D=3');
    expect(body.data[0].relationships.tags.data).toEqual([
      { type: 'tags', id: 't1' },
      { type: 'tags', id: 't2' },
    ]);
  });

  it('includes related resources when asked and refuses unknown include paths', async () => {
    const body = await (await server.fetch('/api/widgets/widgets/?include=tags&page[size]=2')).json();
    expect(body.included.map((r: { id: string }) => r.id).sort()).toEqual(['t1', 't2']);
    const bad = await server.fetch('/api/widgets/widgets/?include=owner');
    expect(bad.status).toBe(400);
    const error = (await bad.json()).errors[0];
    expect(error).toMatchObject({ status: '400', source: { parameter: 'include' } });
  });

  it('creates a resource from a valid document', async () => {
    const response = await post({
      data: {
        type: 'widgets',
        attributes: { name: 'Gadget', price: '9.99' },
        relationships: { tags: { data: [{ type: 'tags', id: 't2' }] } },
      },
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.data.attributes).toEqual({ name: 'Gadget', price: '9.99' });
  });

  it('answers unknown fields with 400 and a pointer per field', async () => {
    const response = await post({
      data: { type: 'widgets', attributes: { name: 'X', price: '1', colour: 'red', size: 3 } },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/colour',
      '/data/attributes/size',
    ]);
    expect(body.errors[0].status).toBe('400');
    expect(body.errors[0].title).toBe('Bad Request');
  });

  it('answers wrong types with 400 pointing at the attribute', async () => {
    const response = await post({ data: { type: 'widgets', attributes: { name: 42, price: '1.234' } } });
    expect(response.status).toBe(400);
    const pointers = (await response.json()).errors
      .map((e: { source: { pointer: string } }) => e.source.pointer)
      .sort();
    expect(pointers).toEqual(['/data/attributes/name', '/data/attributes/price']);
  });

  it('answers a domain rule failure with the field pointer', async () => {
    const response = await post({ data: { type: 'widgets', attributes: { name: 'Widget 1', price: '1' } } });
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0]).toMatchObject({
      detail: 'A widget with this name already exists.',
      source: { pointer: '/data/attributes/name' },
    });
  });

  it('answers a resource of another type with 409', async () => {
    const response = await post({ data: { type: 'gizmos', attributes: { name: 'Y', price: '1' } } });
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0].source.pointer).toBe('/data/type');
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const response = await post('{"data": {');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors[0]).toMatchObject({ status: '400', detail: 'The request body is not valid JSON.' });
  });

  it('answers a body that is not JSON:API with 415', async () => {
    expect((await post({ data: {} }, 'application/json')).status).toBe(415);
    expect((await post({ data: {} }, `${JSONAPI}; charset=utf-8`)).status).toBe(415);
    expect(
      (
        await post(
          { data: { type: 'widgets', attributes: { name: 'Ext', price: '1' } } },
          `${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`,
        )
      ).status,
    ).toBe(201);
  });

  it('answers an Accept with only parameterised JSON:API media types with 406', async () => {
    const response = await server.fetch('/api/widgets/widgets/', { headers: { accept: `${JSONAPI}; charset=utf-8` } });
    expect(response.status).toBe(406);
    expect(response.headers.get('content-type')).toContain(JSONAPI);
  });

  it("answers a missing record with the spec's 404 title", async () => {
    const response = await server.fetch('/api/widgets/widgets/999/');
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0]).toMatchObject({
      status: '404',
      title: 'The requested resource not found.',
    });
  });

  it('answers an unexpected failure with 500 and no internals', async () => {
    const response = await server.fetch('/api/widgets/crash/');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text).errors[0]).toMatchObject({ status: '500', title: 'Internal Server Error.' });
  });

  it('answers bad query parameters with 400 naming the parameter', async () => {
    const response = await server.fetch('/api/widgets/widgets/?page[size]=0&colour=red');
    expect(response.status).toBe(400);
    const parameters = (await response.json()).errors
      .map((e: { source: { parameter: string } }) => e.source.parameter)
      .sort();
    expect(parameters).toEqual(['colour', 'page[size]']);
  });
});
