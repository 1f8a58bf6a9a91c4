// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import type { Quote } from '../quote-api.js';
import { RatingChanges } from './rating-changes.js';
import ReviewQueuePage from './review-queue-page.js';

const summary = {
  quote_number: 'Q-100123',
  product_name: 'homeowners',
  product_label: 'Homeowners',
  status: 'In Review',
  premium: { term: '1200.50', pro_rata: '1200.50' },
  last_rated_at: '2026-11-27T05:00:00.000Z',
  rating_stale: false,
  is_bound: false,
  is_binding: false,
  meta: { locked: false },
  term: { effective_date: '2026-03-01', expiration_date: '2027-03-01' },
  named_insureds: [{ id: 'CON-1', name: 'Robin Quoteworth' }],
  owner: 'agent@agency.test',
  policy: null,
  updated_at: '2026-11-27T05:00:00.000Z',
};

const change = (name: string, label: string, before: string, after: string, delta: string) => ({
  risk: 'home#1',
  risk_label: 'Home',
  name,
  label,
  before,
  after,
  change: delta,
});

describe('quote review screens', () => {
  beforeAll(preloadTestHost);

  it('shows what a re-rate changed: the premium, each changed coverage and factor, signed', async () => {
    await renderInTestHost(<RatingChanges quote={summary as unknown as Quote} />, {
      apis: {
        'GET /quote/:number/rating/difference/': {
          previous: { premium: '1000.00', rated_at: '2026-11-27T04:00:00.000Z' },
          current: { premium: '1200.50', rated_at: '2026-11-27T05:00:00.000Z' },
          premium_change: '200.50',
          coverages: [
            change('dwelling_premium', 'Dwelling premium', '900.00', '1100.50', '200.50'),
            change('liability_premium', 'Liability premium', '100.00', '100.00', '0.00'),
          ],
          factors: [change('key_factor', 'Key factor', '1.0000', '0.9500', '-0.05')],
          inputs: ['home#1 › key_factor: field protection_class expected 4, got 8'],
        },
      },
    });
    const section = await screen.findByRole('region', { name: 'Changes since the last rating' });
    expect(within(section).getByText('Premium $1,000.00 → $1,200.50 (+$200.50)')).toBeTruthy();
    const rows = within(section)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'RiskCoverage or factorBeforeAfterChange',
      'HomeDwelling premium$900.00$1,100.50+$200.50',
      'HomeKey factor1.00000.9500-0.05',
    ]);
  });

  it('lists referrals with their issues and opens each on its review page', async () => {
    await renderInTestHost(<ReviewQueuePage />, {
      apis: {
        'GET /quote/review-queue/': {
          data: [
            {
              ...summary,
              underwriting_issues: [
                {
                  id: 7,
                  code: 'HO-ROOF',
                  message: 'Roofs older than 25 years need underwriter review.',
                  status: 'open',
                },
              ],
            },
          ],
          meta: { count: 1, page: { number: 1, size: 25 } },
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Referrals' });
    const link = within(table).getByRole('link', { name: 'Q-100123' });
    expect(link.getAttribute('href')).toBe('/quote/Q-100123/review/review');
    expect(within(table).getByText('Roofs older than 25 years need underwriter review.')).toBeTruthy();
    expect(within(table).getByText('Robin Quoteworth')).toBeTruthy();
    expect(screen.getByText('1 referral')).toBeTruthy();
  });
});
