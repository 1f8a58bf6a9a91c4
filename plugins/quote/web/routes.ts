import { createRouteRef } from '@atrium/sdk';

/** Spec route quote:create-quote, module path /quote/create. */
export const createQuoteRoute = createRouteRef({ name: 'quote:create-quote', path: '/quote/create' });
/** The quotes the caller may see. */
export const quotesRoute = createRouteRef({ name: 'quote:quotes', path: '/quote' });
/** The underwriter's review queue (quotes In Review with their open issues). */
export const reviewQueueRoute = createRouteRef({ name: 'quote:review-queue', path: '/quote/review' });
/** A quote, opened on the page its flow allows. */
export const quoteRoute = createRouteRef({ name: 'quote:quote', path: '/quote/:quoteNumber' });
/** Spec route quote:page (pageGroupName, pageName; query rules_version). */
export const quotePageRoute = createRouteRef({
  name: 'quote:page',
  path: '/quote/:quoteNumber/:pageGroupName/:pageName',
});
