import { afterEach, describe, expect, it } from 'vitest';
import { acceptedBaseUri } from '../docusign/docusign-client.js';
import { endpointsOf, vendorUrl } from './endpoints.js';

const saved = process.env.ATRIUM_VENDORS_TEST_ORIGIN;
afterEach(() => {
  if (saved === undefined) delete process.env.ATRIUM_VENDORS_TEST_ORIGIN;
  else process.env.ATRIUM_VENDORS_TEST_ORIGIN = saved;
});

describe('vendor endpoints', () => {
  it('are the vendors’ own hosts, per environment', () => {
    delete process.env.ATRIUM_VENDORS_TEST_ORIGIN;
    expect(endpointsOf('quickbooks', 'sandbox').api).toBe('https://sandbox-quickbooks.api.intuit.com');
    expect(endpointsOf('quickbooks', 'production').api).toBe('https://quickbooks.api.intuit.com');
    expect(endpointsOf('docusign', 'sandbox').token).toBe('https://account-d.docusign.com/oauth/token');
    expect(endpointsOf('docusign', 'production').authorization).toBe('https://account.docusign.com/oauth/auth');
  });

  it('move onto the test origin with the host as the first segment', () => {
    process.env.ATRIUM_VENDORS_TEST_ORIGIN = 'http://127.0.0.1:4010/';
    expect(vendorUrl('https://quickbooks.api.intuit.com')).toBe('http://127.0.0.1:4010/quickbooks.api.intuit.com');
    expect(vendorUrl('https://appcenter.intuit.com/connect/oauth2?x=1')).toBe(
      'http://127.0.0.1:4010/appcenter.intuit.com/connect/oauth2?x=1',
    );
  });

  it('call a DocuSign account only on DocuSign’s hosts', () => {
    delete process.env.ATRIUM_VENDORS_TEST_ORIGIN;
    expect(acceptedBaseUri('https://demo.docusign.net')).toBe('https://demo.docusign.net');
    expect(acceptedBaseUri('https://na3.docusign.net/')).toBe('https://na3.docusign.net');
    expect(acceptedBaseUri('http://demo.docusign.net')).toBeNull();
    expect(acceptedBaseUri('https://docusign.net.evil.example')).toBeNull();
    expect(acceptedBaseUri('not a url')).toBeNull();
  });
});
