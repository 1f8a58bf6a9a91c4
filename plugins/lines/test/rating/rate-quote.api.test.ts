import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from '../catalog/lines-test-server.js';
import { austinHome, demoProduct } from './rating-test-data.js';

/** POST /api/rating/rate-quote/ and /api/rating/evaluate-quote-computed-fields/ on the seeded catalog. */
let server: LinesTestServer;
let home: Awaited<ReturnType<typeof demoProduct>>;
beforeAll(async () => {
  server = await startLinesServer();
  home = await demoProduct(server.db, 'homeowners');
});
afterAll(async () => server?.close());

const rateQuote = (body: unknown, caller = server.author) => caller.post('/api/rating/rate-quote/', body);

describe('rate-quote', () => {
  it('rates a unified risk state with the published version in effect', async () => {
    const rating = await expectStatus(
      rateQuote({
        product: 'homeowners',
        unified_risk_state: austinHome,
        transaction_type: 'new_business',
        rating_dates: { effective_date: '2026-01-01' },
      }),
      200,
    );
    expect(rating).toMatchObject({
      product_id: home.id,
      version_id: home.published,
      premium: { term: '1789.60', pro_rata: '1789.60', fully_earned: '168.00' },
      term: { termStart: '2026-01-01', termEnd: '2027-01-01' },
    });
    expect(rating.worksheet.root.path).toBe('home#home-1');
    expect(rating.worksheet.root.children.map((c: { path: string }) => c.path)).toEqual([
      'home#home-1/scheduled_article#ring',
      'home#home-1/scheduled_article#watch',
    ]);
  });

  it('prices quotes for those who quote (underwriters, agents) but not for claims adjusters', async () => {
    const body = {
      product: 'homeowners',
      unified_risk_state: austinHome,
      transaction_type: 'new_business',
      rating_dates: { effective_date: '2026-01-01' },
    };
    const rating = await expectStatus(rateQuote(body, server.underwriter), 200);
    expect(rating.premium.term).toBe('1789.60');
    await expectStatus(rateQuote(body, server.as('agent@agency.test')), 200);
    expect((await rateQuote(body, server.adjuster)).status).toBe(403);
  });

  it('prorates an endorsement over the rest of the term of a named version', async () => {
    const rating = await expectStatus(
      rateQuote({
        product: home.id,
        version: home.draft,
        unified_risk_state: austinHome,
        transaction_type: 'endorsement',
        rating_dates: { effective_date: '2026-07-02' },
        term: { effective_date: '2026-01-01', expiration_date: '2027-01-01' },
      }),
      200,
    );
    expect(rating.version_id).toBe(home.draft);
    expect(rating.term).toMatchObject({ daysInForce: 183, termDays: 365 });
    // (1789.60 − 168.00) × 183 / 365 = 813.02, plus the fully earned 168.00.
    expect(rating.premium.pro_rata).toBe('981.02');
  });

  it('answers engine errors with 400 and the engine message', async () => {
    const noZip = { ...austinHome, field_answers: { ...austinHome.field_answers, construction: 'straw' } };
    const response = await rateQuote({
      product: 'homeowners',
      unified_risk_state: noZip,
      rating_dates: { effective_date: '2026-01-01' },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('rate_table_no_match');
    expect(body.detail).toContain("Rate table 'construction_protection' has no row for construction=straw");
    const wrongChild = {
      ...austinHome,
      children: [{ id: 'x', type: { name: 'home' }, field_answers: {} }],
    };
    expect(
      await errorOf(
        rateQuote({
          product: 'homeowners',
          unified_risk_state: wrongChild,
          rating_dates: { effective_date: '2026-01-01' },
        }),
        400,
      ),
    ).toContain("'home' is not a child type of 'home'");
  });

  it('validates the request', async () => {
    await expectStatus(
      rateQuote({ product: 'nope', unified_risk_state: austinHome, rating_dates: { effective_date: '2026-01-01' } }),
      404,
    );
    expect(
      await errorOf(
        rateQuote({
          product: 'homeowners',
          unified_risk_state: austinHome,
          rating_dates: { effective_date: '2025-01-01' },
        }),
        400,
      ),
    ).toBe("Product 'homeowners' has no published version in effect on 2025-01-01.");
    expect(
      await errorOf(
        rateQuote({
          product: 'homeowners',
          unified_risk_state: austinHome,
          transaction_type: 'sale',
          rating_dates: { effective_date: '2026-01-01' },
        }),
        400,
      ),
    ).toMatch(/^transaction_type must be one of/);
    let deep: Record<string, unknown> = { id: 'leaf', type: { name: 'scheduled_article' }, field_answers: {} };
    for (let i = 0; i < 10; i++) deep = { id: `n${i}`, type: { name: 'home' }, field_answers: {}, children: [deep] };
    expect(
      await errorOf(
        rateQuote({ product: 'homeowners', unified_risk_state: deep, rating_dates: { effective_date: '2026-01-01' } }),
        400,
      ),
    ).toBe('unified_risk_state nests at most 7 levels deep.');
    await expectStatus(rateQuote({ product: 'homeowners', unified_risk_state: austinHome }), 400);
  });

  it('evaluates the computed fields of a tree without rating it', async () => {
    const response = await expectStatus(
      server.author.post('/api/rating/evaluate-quote-computed-fields/', {
        product: 'homeowners',
        unified_risk_state: austinHome,
        rating_dates: { effective_date: '2026-03-01' },
      }),
      200,
    );
    expect(response.unified_risk_state.computed_fields).toEqual({ roof_age: '12', home_age: '28' });
    expect(response.unified_risk_state.field_answers).toMatchObject({ zip: '78701', roof_age: '12' });
    expect(response.unified_risk_state.children[0].computed_fields).toEqual({});
  });
});
