/**
 * What the navigation walker (walker.ts) tolerates, each with the reason. Keep this list short:
 * an entry is a known fault with an issue, or a response that is correct for the page (never a
 * way to silence a page that is broken).
 */

export interface AllowedResponse {
  /** Matches `METHOD /path` (query string left out), e.g. /^GET \/api\/claims\/claims\/\d+\/$/. */
  request: RegExp;
  status: number;
  /** Only for these demo accounts; all when absent. */
  users?: string[];
  reason: string;
}

export interface AllowedViolation {
  /** The axe rule id, e.g. `color-contrast`. */
  rule: string;
  /** Only on these paths (regular expressions over the pathname); all when absent. */
  paths?: RegExp[];
  reason: string;
}

/** 4xx/5xx answers a page may get while it works as intended. */
export const ALLOWED_RESPONSES: AllowedResponse[] = [];

/** Console errors a page may log (matched against the message). */
export const ALLOWED_CONSOLE_ERRORS: { message: RegExp; reason: string }[] = [
  {
    // Chromium logs every 4xx/5xx a page fetches as a console error of its own; the response check
    // above already judges those, against ALLOWED_RESPONSES.
    message: /^Failed to load resource: the server responded with a status of \d{3}/,
    reason: 'Duplicate of the response check.',
  },
];

/** Serious or critical axe-core violations that are known, with the issue that fixes them. */
export const ALLOWED_VIOLATIONS: AllowedViolation[] = [
  {
    rule: 'button-name',
    paths: [/^\/claims$/, /^\/claims\/assign-claims$/],
    reason:
      "Issue 13 (accessibility): the claims lists' Mantine Pagination controls have no accessible name " +
      '(plugins/claims/web/components/claim-table.tsx; fix: getControlProps with aria-labels). The claims ' +
      "module is not the walker's to change.",
  },
];
