import { describe, expect, it } from 'vitest';
import { ApiError } from '../http-problem.js';
import { paginationLinks, toPageRequest } from './pagination.js';
import { defineResource, parseInclude, serializeDocument } from './resource.js';

interface Claim {
  id: number;
  number: string;
  exposureIds: number[];
  adjuster: string | null;
}
interface Exposure {
  id: number;
  name: string;
  reserveIds: number[];
}
interface Reserve {
  id: number;
  amount: string;
}

const reserves: Reserve[] = [
  { id: 7, amount: '100.00' },
  { id: 8, amount: '0.10' },
];
const exposures: Exposure[] = [
  { id: 1, name: 'Dwelling', reserveIds: [7] },
  { id: 2, name: 'Contents', reserveIds: [7, 8] },
];
let loads = 0;

const reserve = defineResource<Reserve>({
  type: 'reserves',
  id: (r) => String(r.id),
  attributes: (r) => ({ amount: r.amount }),
});
const exposure = defineResource<Exposure>({
  type: 'exposures',
  id: (e) => String(e.id),
  attributes: (e) => ({ exposure_name: e.name }),
  relationships: {
    reserves: {
      resource: () => reserve,
      many: true,
      ids: (e) => e.reserveIds.map(String),
      load: async (ids) => {
        loads++;
        return reserves.filter((r) => ids.includes(String(r.id)));
      },
    },
  },
});
const claim = defineResource<Claim>({
  type: 'claims',
  id: (c) => String(c.id),
  basePath: '/api/claims/claims/',
  attributes: (c) => ({ number: c.number }),
  relationships: {
    exposures: {
      resource: () => exposure,
      many: true,
      ids: (c) => c.exposureIds.map(String),
      load: async (ids) => exposures.filter((e) => ids.includes(String(e.id))),
    },
    primary_adjuster: { resource: () => reserve, ids: (c) => c.adjuster },
  },
});

describe('JSON:API resources', () => {
  it('serializes attributes, relationships and self links', async () => {
    const doc = await serializeDocument(claim, { id: 5, number: 'CLM-5', exposureIds: [1], adjuster: null });
    expect(doc.data).toEqual({
      type: 'claims',
      id: '5',
      attributes: { number: 'CLM-5' },
      relationships: {
        exposures: {
          data: [{ type: 'exposures', id: '1' }],
          links: { self: '/api/claims/claims/5/relationships/exposures' },
        },
        primary_adjuster: { data: null, links: { self: '/api/claims/claims/5/relationships/primary_adjuster' } },
      },
      links: { self: '/api/claims/claims/5/' },
    });
    expect(doc.included).toBeUndefined();
  });

  it('includes nested relationships once each, loading each level in one call', async () => {
    loads = 0;
    const include = parseInclude('exposures.reserves', claim);
    const doc = await serializeDocument(claim, [{ id: 5, number: 'CLM-5', exposureIds: [1, 2], adjuster: null }], {
      include,
    });
    const keys = doc.included!.map((r) => `${r.type}:${r.id}`);
    expect(keys).toEqual(['exposures:1', 'exposures:2', 'reserves:7', 'reserves:8']);
    expect(loads).toBe(1);
  });

  it('refuses an include path that does not exist or cannot be loaded, naming the parameter', () => {
    expect(() => parseInclude('exposures.nothing', claim)).toThrow(ApiError);
    try {
      parseInclude('primary_adjuster', claim);
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).issues[0]!.source).toEqual({ parameter: 'include' });
    }
  });
});

describe('pagination links', () => {
  it('keeps other query parameters and bounds prev/next', () => {
    const page = toPageRequest({ 'page[number]': 2, 'page[size]': 250 });
    expect(page.offset).toBe(250);
    const { links, meta } = paginationLinks('/api/claims/claims/', { status: 'open', 'page[number]': 2 }, page, 600);
    expect(meta).toEqual({ count: 600, pages: 3 });
    expect(links.next).toBe('/api/claims/claims/?status=open&page%5Bnumber%5D=3&page%5Bsize%5D=250');
    expect(links.prev).toContain('page%5Bnumber%5D=1');
    expect(links.last).toContain('page%5Bnumber%5D=3');
    const last = paginationLinks('/x', {}, toPageRequest({ 'page[number]': 3, 'page[size]': 250 }), 600);
    expect(last.links.next).toBeNull();
  });

  it('has one page for an empty collection', () => {
    const { links, meta } = paginationLinks('/x', {}, toPageRequest({ 'page[number]': 1, 'page[size]': 10 }), 0);
    expect(meta.pages).toBe(1);
    expect(links.prev).toBeNull();
    expect(links.next).toBeNull();
  });
});
