import type { VendorEnvironment, VendorId } from '../../shared/vendors.js';

/**
 * The vendors' published OAuth and REST endpoints per environment (QuickBooks Online: Intuit's OAuth
 * 2.0 discovery document and Accounting API base URLs; DocuSign: the account server and eSignature
 * REST API v2.1). They are fixed here, never taken from a request, so the server only ever calls
 * these hosts.
 *
 * `ATRIUM_VENDORS_TEST_ORIGIN` (tests and demos only) sends every call to one local server instead,
 * keeping the vendor's host as the first path segment (`https://appcenter.intuit.com/connect/oauth2`
 * becomes `http://127.0.0.1:4010/appcenter.intuit.com/connect/oauth2`), so the stand-in can tell
 * hosts, and therefore sandbox from production, apart. It is read from the environment only.
 */
export interface VendorEndpoints {
  authorization: string;
  token: string;
  revocation: string | null;
  /** DocuSign: the userinfo endpoint that names the account and its REST base URI. */
  userinfo: string | null;
  /** QuickBooks: the Accounting API base (`…/v3/company/{realmId}/…` is appended). */
  api: string | null;
  scope: string;
}

const REAL: Record<VendorId, Record<VendorEnvironment, VendorEndpoints>> = {
  quickbooks: {
    sandbox: {
      authorization: 'https://appcenter.intuit.com/connect/oauth2',
      token: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      revocation: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
      userinfo: null,
      api: 'https://sandbox-quickbooks.api.intuit.com',
      scope: 'com.intuit.quickbooks.accounting',
    },
    production: {
      authorization: 'https://appcenter.intuit.com/connect/oauth2',
      token: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
      revocation: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
      userinfo: null,
      api: 'https://quickbooks.api.intuit.com',
      scope: 'com.intuit.quickbooks.accounting',
    },
  },
  docusign: {
    sandbox: {
      authorization: 'https://account-d.docusign.com/oauth/auth',
      token: 'https://account-d.docusign.com/oauth/token',
      revocation: null,
      userinfo: 'https://account-d.docusign.com/oauth/userinfo',
      api: null,
      scope: 'signature',
    },
    production: {
      authorization: 'https://account.docusign.com/oauth/auth',
      token: 'https://account.docusign.com/oauth/token',
      revocation: null,
      userinfo: 'https://account.docusign.com/oauth/userinfo',
      api: null,
      scope: 'signature',
    },
  },
};

/** A vendor URL as the server calls it: the real one, or rewritten onto the test origin. */
export function vendorUrl(url: string): string {
  const origin = process.env.ATRIUM_VENDORS_TEST_ORIGIN;
  if (!origin) return url;
  const parsed = new URL(url);
  const path = parsed.pathname === '/' ? '' : parsed.pathname;
  return `${origin.replace(/\/+$/, '')}/${parsed.host}${path}${parsed.search}`;
}

export function endpointsOf(vendor: VendorId, environment: VendorEnvironment): VendorEndpoints {
  const real = REAL[vendor][environment];
  const map = (url: string | null) => (url === null ? null : vendorUrl(url));
  return {
    authorization: vendorUrl(real.authorization),
    token: vendorUrl(real.token),
    revocation: map(real.revocation),
    userinfo: map(real.userinfo),
    api: map(real.api),
    scope: real.scope,
  };
}

/** Plain http is allowed only towards the test origin. */
export const insecureAllowed = () => Boolean(process.env.ATRIUM_VENDORS_TEST_ORIGIN?.startsWith('http://'));
