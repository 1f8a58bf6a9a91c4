// @vitest-environment jsdom
import { compileProduct, rate, type ProductDefinition } from '@atrium/rating';
import { screen, waitFor, within } from '@testing-library/react';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { ratingCommands } from '../rating-routes.js';
import { ScenarioDetail } from './scenario-detail.js';

/** A small product rated by the real engine, so the worksheet shown is one the engine really gives. */
const product: ProductDefinition = {
  name: 'homeowners',
  rootRiskType: 'home',
  riskTypes: [
    {
      name: 'home',
      fields: [
        { name: 'construction', type: 'enum', options: ['frame', 'masonry'] },
        { name: 'coverage_a', type: 'number' },
      ],
      items: [{ name: 'dwelling' }],
      calculations: [
        { name: 'base_rate', formula: 'construction_rate(construction)' },
        {
          name: 'coverage_factor',
          formula: 'coverage_relativity(coverage_a)',
          round: { places: 4, mode: 'half-even' },
        },
        { name: 'premium', formula: "base_rate * coverage_factor + limit('dwelling') / 1000", round: { places: 2 } },
      ],
    },
  ],
  rateTables: [
    {
      name: 'construction_rate',
      keys: [{ name: 'construction', match: 'exact' }],
      rows: [
        { keys: { construction: 'frame' }, value: '1000' },
        { keys: { construction: 'masonry' }, value: '900' },
      ],
    },
    {
      name: 'coverage_relativity',
      keys: [{ name: 'coverage_a', match: 'exact' }],
      interpolate: 'coverage_a',
      rows: [
        { keys: { coverage_a: '200000' }, value: '1' },
        { keys: { coverage_a: '300000' }, value: '1.15' },
      ],
    },
  ],
};

function ratingFor(coverage: string) {
  const result = rate(compileProduct(product), {
    risk: {
      id: '1',
      type: 'home',
      answers: { construction: 'frame', coverage_a: coverage },
      items: [{ name: 'dwelling', limit: '250000' }],
    },
    transactionType: 'new_business',
    termStart: '2026-01-01',
    termEnd: '2027-01-01',
  });
  return {
    premium: { term: result.term.termPremium, pro_rata: result.term.proRataPremium },
    term: result.term,
    worksheet: result.worksheet,
    rated_at: '2026-11-22T03:00:00.000Z',
  };
}

const scenario = {
  id: 4,
  name: 'Frame home',
  transaction_type: 'new_business',
  effective_date: '2026-01-01',
  expected_premium: '1325.00',
  premium: null,
  unified_risk_state: {
    id: 1,
    type: { name: 'home' },
    field_answers: { construction: 'frame', coverage_a: '250000' },
    items: [{ name: 'dwelling', limit: '250000' }],
    children: [],
  },
};

const riskTypes = [{ id: 9, name: 'home', label: 'Home', parentRiskType: null }];
const fields = [
  {
    name: 'construction',
    label: 'Construction',
    type: { name: 'enum' },
    options: [{ value: 'frame' }, { value: 'masonry' }],
  },
  { name: 'coverage_a', label: 'Coverage A', type: { name: 'number' } },
];

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const apis = (rateHandler: () => unknown) => ({
  'GET /lines/products/2/scenarios/4/': scenario,
  'GET /lines/products/2/risk-types/': riskTypes,
  'GET /lines/products/2/risk-types/9/risk-fields/': fields,
  'GET /lines/products/2/risk-types/9/risk-items/': [{ name: 'dwelling', label: 'Dwelling' }],
  'POST /lines/products/2/scenarios/4/rate/': rateHandler,
  'POST /lines/products/2/scenarios/4/risks/1/fields/:field/validate-answer/': ({ body }: { body: unknown }) =>
    (body as { answer: unknown }).answer === 'abc'
      ? { valid: false, message: "'abc' is not a number.", value: null }
      : { valid: true, message: null, value: (body as { answer: unknown }).answer },
});

describe('scenario detail', () => {
  beforeAll(preloadTestHost);

  it('rates and shows the premium and the worksheet line by line, with table rows and interpolation', async () => {
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      {
        apis: apis(() => ratingFor('250000')),
      },
    );
    await host.user.click(await screen.findByRole('button', { name: 'Rate' }));
    expect((await screen.findByLabelText('Term premium')).textContent).toBe('1325.00');
    expect(screen.getByText('Expected 1325.00: matches')).toBeTruthy();
    const sheet = screen.getByRole('table', { name: 'Worksheet home#1' });
    const base = within(sheet).getByRole('row', { name: /Worksheet line base_rate/ });
    expect(within(base).getByText('field construction = frame')).toBeTruthy();
    expect(within(base).getByText('construction_rate(construction=frame) → row 1: 1000')).toBeTruthy();
    expect(within(base).getByLabelText('Result of base_rate').textContent).toBe('1000');
    const factor = within(sheet).getByRole('row', { name: /Worksheet line coverage_factor/ });
    expect(
      within(factor).getByText(
        'coverage_relativity(coverage_a=250000) → 1.075, interpolated on coverage_a between row 1 (200000 → 1) and row 2 (300000 → 1.15), weight 0.5',
      ),
    ).toBeTruthy();
    const premium = within(sheet).getByRole('row', { name: /Worksheet line premium/ });
    expect(within(premium).getByText('limit dwelling = 250000')).toBeTruthy();
    expect(within(premium).getByText('calculation base_rate = 1000')).toBeTruthy();
    expect(host.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/rate/'))[0]!.search).toBe(
      '?version_id=8',
    );
  });

  it('applies only the latest rating response when an earlier one arrives after it', async () => {
    const answers = [deferred<unknown>(), deferred<unknown>()];
    let calls = 0;
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      {
        apis: apis(() => answers[calls++]!.promise),
      },
    );
    const button = await screen.findByRole('button', { name: 'Rate' });
    await host.user.click(button);
    await waitFor(() => expect(calls).toBe(1));
    await host.user.click(button);
    await waitFor(() => expect(calls).toBe(2));
    answers[1]!.resolve(ratingFor('300000'));
    expect((await screen.findByLabelText('Term premium')).textContent).toBe('1400.00');
    answers[0]!.resolve(ratingFor('200000'));
    // Give the stale answer every chance to land, then check it did not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText('Term premium').textContent).toBe('1400.00');
  });

  it("shows the server's validate-answer message under a field when it loses focus", async () => {
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      {
        apis: apis(() => ratingFor('250000')),
      },
    );
    // The label comes from the risk type's fields, read after the scenario and the risk types.
    const input = await screen.findByRole('textbox', { name: 'Coverage A' }, { timeout: 5000 });
    await host.user.clear(input);
    await host.user.type(input, 'abc');
    await host.user.tab();
    expect(await screen.findByText("'abc' is not a number.")).toBeTruthy();
    const check = host.requests.find((r) => r.path.endsWith('/fields/coverage_a/validate-answer/'));
    expect(check?.body).toEqual({ answer: 'abc' });
  });

  it('rates when the palette command "Rate scenario" runs', async () => {
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      { apis: apis(() => ratingFor('250000')) },
    );
    await screen.findByRole('button', { name: 'Rate' });
    const command = ratingCommands.find((c) => c.id === 'lines.rateScenario')!;
    expect(command.when).toBe('route == "lines:scenario-preview"');
    await command.run(undefined as never, { services: host.services, context: {} } as never);
    expect((await screen.findByLabelText('Term premium')).textContent).toBe('1325.00');
  });

  it('records the current rating as the known answer on a draft and shows the expected premium after', async () => {
    let expected: string | null = null;
    const current = () => ({ ...scenario, expected_premium: expected });
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      {
        apis: {
          ...apis(() => ratingFor('250000')),
          'GET /lines/products/2/scenarios/4/': current,
          'POST /lines/products/2/scenarios/4/known-answer/': () => {
            expected = '1325.00';
            return current();
          },
        },
      },
    );
    await host.user.click(await screen.findByRole('button', { name: 'Record known answer' }));
    expect((await screen.findByLabelText('Recorded known answer')).textContent).toContain(
      'Recorded as a known-answer case: expected premium 1325.00.',
    );
    expect(await screen.findByText("Known answer of 'Frame home' recorded.")).toBeTruthy();
    const post = host.requests.find((r) => r.method === 'POST' && r.path.endsWith('/known-answer/'));
    expect(post?.search).toBe('?version_id=8');
    // The scenario is read again, so the rating compares with the new expected premium.
    await host.user.click(screen.getByRole('button', { name: 'Rate' }));
    expect(await screen.findByText('Expected 1325.00: matches')).toBeTruthy();
  });

  it('shows the server’s refusal to record a known answer', async () => {
    const refusal = 'Version 1 of HO3 is published: only a draft version can be changed.';
    const host = await renderInTestHost(
      <ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly={false} />,
      {
        apis: {
          ...apis(() => ratingFor('250000')),
          'POST /lines/products/2/scenarios/4/known-answer/': new Response(
            JSON.stringify({ status: 409, detail: refusal, errors: [{ detail: refusal }] }),
            { status: 409, headers: { 'content-type': 'application/problem+json' } },
          ),
        },
      },
    );
    await host.user.click(await screen.findByRole('button', { name: 'Record known answer' }));
    expect(await screen.findByText('The known answer could not be recorded')).toBeTruthy();
    expect(screen.getByText(refusal)).toBeTruthy();
  });

  it('offers no "Record known answer" on a read-only version', async () => {
    await renderInTestHost(<ScenarioDetail scope={{ productId: 2, versionId: 8 }} scenarioId={4} readOnly />, {
      apis: apis(() => ratingFor('250000')),
    });
    await screen.findByRole('button', { name: 'Rate' });
    expect(screen.queryByRole('button', { name: 'Record known answer' })).toBeNull();
  });
});
