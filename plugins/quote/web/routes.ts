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
/**
 * Spec route quote:edit-risk: one risk of a quote on a page of its own (its answers, coverages and
 * child risks). Four segments after /quote, so it never matches quote:page's three.
 */
export const editRiskRoute = createRouteRef({ name: 'quote:edit-risk', path: '/quote/:quoteNumber/risk/:riskId/edit' });
/** Spec route quote:add-risk: a new risk of `riskTypeName` under the risk `?parent=` (the root by default). */
export const addRiskRoute = createRouteRef({
  name: 'quote:add-risk',
  path: '/quote/:quoteNumber/risk/add/:riskTypeName',
});
