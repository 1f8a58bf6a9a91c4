import IconFileDollar from '@tabler/icons-react/icons/IconFileDollar';
import IconFilePlus from '@tabler/icons-react/icons/IconFilePlus';
import IconGavel from '@tabler/icons-react/icons/IconGavel';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { quoteQuickSearch } from './quote-quick-search.js';
import {
  addRiskRoute,
  createQuoteRoute,
  editRiskRoute,
  quotePageRoute,
  quoteRoute,
  quotesRoute,
  reviewQueueRoute,
} from './routes.js';

/** The open quote's page runs the action named in its URL (`?action=rate`). */
const onOpenQuote = (action: string) => {
  const url = new URL(window.location.href);
  url.searchParams.set('action', action);
  return `${url.pathname}${url.search}`;
};

/**
 * The Quote module's web half: New Quote (/quote/create), the quotes list, the quote's pages
 * (driven by the server's flow and the quote-flow machine), the Quote quick search and the palette
 * commands (new quote, open quote, rate, submit, bind), and My work's open quotes and referrals.
 */
export default definePlugin({
  id: 'quote',
  title: 'Quote',
  moduleKey: 'quote',
  routes: [
    {
      name: createQuoteRoute.name,
      path: createQuoteRoute.path,
      meta: { layout: 'default', title: 'New Quote' },
      loader: () => import('./pages/create-quote-page.js'),
    },
    {
      name: quotesRoute.name,
      path: quotesRoute.path,
      meta: { layout: 'default', title: 'Quotes' },
      loader: () => import('./pages/quotes-page.js'),
    },
    {
      name: reviewQueueRoute.name,
      path: reviewQueueRoute.path,
      meta: {
        layout: 'default',
        title: 'Review queue',
        permission: { resource: 'quote:quote', action: 'underwrite' },
      },
      loader: () => import('./pages/review-queue-page.js'),
    },
    {
      name: quoteRoute.name,
      path: quoteRoute.path,
      meta: { layout: 'default', title: 'Quote' },
      loader: () => import('./pages/quote-page.js'),
    },
    {
      name: editRiskRoute.name,
      path: editRiskRoute.path,
      meta: { layout: 'default', title: 'Edit risk' },
      loader: () => import('./pages/risk-edit-page.js'),
    },
    {
      name: addRiskRoute.name,
      path: addRiskRoute.path,
      meta: { layout: 'default', title: 'Add risk' },
      loader: () => import('./pages/risk-edit-page.js'),
    },
    {
      name: quotePageRoute.name,
      path: quotePageRoute.path,
      meta: { layout: 'default', title: 'Quote' },
      loader: () => import('./pages/quote-page.js'),
    },
  ],
  nav: [
    {
      id: 'quote.nav',
      title: 'Quotes',
      to: quotesRoute,
      area: 'main',
      order: 110,
      icon: IconFileDollar,
      command: 'quote.open',
    },
    { id: 'quote.list', title: 'Quotes', to: quotesRoute, area: 'sub', order: 1 },
    { id: 'quote.create', title: 'New Quote', to: createQuoteRoute, area: 'sub', order: 2 },
    { id: 'quote.review', title: 'Review queue', to: reviewQueueRoute, area: 'sub', order: 3 },
    { id: 'quote.agent.new', title: 'New Quote', to: createQuoteRoute, area: 'agent', order: 1, icon: IconFilePlus },
  ],
  commands: [
    defineCommand({
      id: 'quote.open',
      title: 'Open Quotes',
      group: 'Quote',
      keywords: ['quotes', 'policies and quotes'],
      run: (_args, { services }) => services.navigate(quotesRoute.link({})),
    }),
    defineCommand({
      id: 'quote.new',
      title: 'New Quote',
      group: 'Quote',
      keywords: ['create quote', 'quote', 'new business'],
      run: (_args, { services }) => services.navigate(createQuoteRoute.link({})),
    }),
    defineCommand({
      id: 'quote.openQuote',
      title: 'Open Quote…',
      group: 'Quote',
      keywords: ['quote number', 'find quote'],
      run: (_args, { services }) => services.openQuickSearchForType('Quote'),
    }),
    ...(
      [
        ['rate', 'Rate Quote', ['premium', 'rating']],
        ['submit', 'Submit Quote', ['review', 'underwriting']],
        ['bind', 'Bind Quote', ['policy', 'issue']],
      ] as const
    ).map(([action, title, keywords]) =>
      defineCommand({
        id: `quote.${action}`,
        title,
        group: 'Quote',
        keywords: [...keywords],
        when: 'quote.quoteOpen',
        run: (_args, { services }) => services.navigate(onOpenQuote(action)),
      }),
    ),
  ],
  // `g q`: the module's chord (issue 13), listed in `?`.
  shortcuts: [{ key: 'g q', command: 'quote.open', description: 'Go to Quotes', when: '!modalOpen' }],
  quickSearch: [quoteQuickSearch],
  myWork: [
    {
      id: 'quote.my-open-quotes',
      title: 'My open quotes',
      order: 30,
      icon: IconFileDollar,
      // The list route's question; agents see their own and their agency's quotes, the owner filter narrows to theirs.
      access: { resource: 'quote:quote', action: 'read' },
      loader: () => import('./my-work/my-open-quotes-widget.js'),
    },
    {
      id: 'quote.referrals',
      title: 'Referrals awaiting review',
      order: 25,
      icon: IconGavel,
      // Only for those who may clear underwriting issues: the review queue's own question.
      access: { resource: 'quote:quote', action: 'underwrite' },
      loader: () => import('./my-work/referrals-widget.js'),
    },
  ],
});
