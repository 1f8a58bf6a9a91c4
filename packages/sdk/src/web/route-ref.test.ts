import { describe, expect, expectTypeOf, it } from 'vitest';
import { createRouteRef, RouteParamsError, type PathParams } from './route-ref.js';

describe('createRouteRef', () => {
  const exposures = createRouteRef({ name: 'claims:exposures', path: '/claims/:claimId/exposures' });
  const manage = createRouteRef({ name: 'users:manage', path: '/users/manage/:inviteUserContactId?' });
  const root = createRouteRef({ name: 'all-modules', path: '/' });

  it('builds the path from params, encoding each value', () => {
    expect(exposures.link({ claimId: 'C 1/2' })).toBe('/claims/C%201%2F2/exposures');
    expect(exposures.link({ claimId: 42 })).toBe('/claims/42/exposures');
  });

  it('adds a query string and skips null and undefined query values', () => {
    expect(root.link({}, { pageReload: true, redirect: undefined, q: null })).toBe('/?pageReload=true');
    expect(exposures.link({ claimId: '7' }, { tab: 'open' })).toBe('/claims/7/exposures?tab=open');
  });

  it('drops an optional segment when its param is missing', () => {
    expect(manage.link({})).toBe('/users/manage');
    expect(manage.link({ inviteUserContactId: 'abc' })).toBe('/users/manage/abc');
  });

  it('refuses missing and unknown params at run time', () => {
    expect(() => exposures.link({} as never)).toThrow(
      new RouteParamsError("Route 'claims:exposures' needs the parameter 'claimId'."),
    );
    expect(() => exposures.link({ claimId: '1', extra: 'x' } as never)).toThrow("has no parameter 'extra'");
    expect(() => exposures.link({ claimId: '' })).toThrow('needs the parameter');
  });

  it('types params from the path', () => {
    type Two = PathParams<'/claims/:claimId/exposures/:exposureId'>;
    expectTypeOf<{ claimId: string; exposureId: number }>().toExtend<Two>();
    expectTypeOf<{ claimId: string }>().not.toExtend<Two>();
    expectTypeOf<{ id?: string }>().toExtend<PathParams<'/x/:id?'>>();
    expectTypeOf(exposures.link).parameter(0).toHaveProperty('claimId');
    // @ts-expect-error claimId is required
    expect(() => exposures.link({})).toThrow();
    // @ts-expect-error unknown param
    expect(() => exposures.link({ claimId: '1', policyId: '2' })).toThrow();
  });

  it('rejects malformed paths', () => {
    expect(() => createRouteRef({ name: 'x', path: 'claims' })).toThrow("must start with '/'");
    expect(() => createRouteRef({ name: 'x', path: '/a/:b/:b' })).toThrow("repeats the parameter 'b'");
    expect(() => createRouteRef({ name: 'x', path: '/a/:1b' })).toThrow('malformed parameter');
  });

  it('lists its params', () => {
    expect(manage.params).toEqual([{ name: 'inviteUserContactId', optional: true }]);
  });
});
