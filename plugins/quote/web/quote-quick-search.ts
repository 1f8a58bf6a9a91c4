import { defineQuickSearchProvider } from '@atrium/sdk';
import { quoteApi, type QuoteSummary } from './quote-api.js';
import { quoteRoute } from './routes.js';

/** Quotes by number or named insured (the shell shows 5). */
export const quoteQuickSearch = defineQuickSearchProvider<QuoteSummary>({
  id: 'quote.search',
  type: 'Quote',
  typePlural: 'Quotes',
  prefix: 'Q-',
  minLength: 2,
  search: async ({ query, signal, api }) => {
    if (!api) throw new Error('Quote search needs the API client.');
    return (await quoteApi(api).search(query, 5, signal)).results;
  },
  toItem: (quote) => ({
    id: quote.quote_number,
    title: quote.quote_number,
    subtitle: [quote.named_insureds[0]?.name, quote.product_label, quote.status].filter(Boolean).join(' · '),
    to: quoteRoute.link({ quoteNumber: quote.quote_number }),
  }),
});
