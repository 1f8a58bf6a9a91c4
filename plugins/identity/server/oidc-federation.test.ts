import { describe, expect, it } from 'vitest';
import { appRedirectUri, redirectUriProblem, registeredRedirectUriProblem } from './oidc-federation.js';

describe('OIDC redirect URIs', () => {
  it("allows the app's own return page on ATRIUM_PUBLIC_URL's origin, nothing without it", () => {
    expect(appRedirectUri({ ATRIUM_PUBLIC_URL: 'https://claims.example/some/path' })).toBe(
      'https://claims.example/login/idpresponse',
    );
    expect(appRedirectUri({})).toBeUndefined();
    expect(appRedirectUri({ ATRIUM_PUBLIC_URL: 'ftp://claims.example' })).toBeUndefined();
  });

  it('matches registered URIs exactly', () => {
    const provider = { redirectUris: ['https://claims.example/login/idpresponse'] };
    expect(redirectUriProblem(provider, 'https://claims.example/login/idpresponse')).toBeNull();
    expect(redirectUriProblem(provider, 'https://claims.example/login/idpresponse/')).toMatch(/not registered/);
    expect(redirectUriProblem(provider, 'https://claims.example.evil/login/idpresponse')).toMatch(/not registered/);
  });

  it('registers only absolute https URLs without a fragment (http on loopback)', () => {
    expect(registeredRedirectUriProblem('https://claims.example/login/idpresponse')).toBeNull();
    expect(registeredRedirectUriProblem('http://localhost:5173/login/idpresponse')).toBeNull();
    expect(registeredRedirectUriProblem('http://claims.example/login/idpresponse')).toMatch(/https/);
    expect(registeredRedirectUriProblem('https://claims.example/#x')).toMatch(/fragment/);
    expect(registeredRedirectUriProblem('login/idpresponse')).toMatch(/absolute/);
  });
});
