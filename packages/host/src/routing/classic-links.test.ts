import { describe, expect, it } from 'vitest';
import { classicLinkTarget } from './classic-links.js';

describe('classic links', () => {
  it('send policy, claim and contact information pages to the module routes', () => {
    expect(classicLinkTarget('policy', '?policyId=P-100')).toBe('/policies/P-100');
    expect(classicLinkTarget('claim', '?claimId=42')).toBe('/claims/42');
    expect(classicLinkTarget('contact', '?id=abc-7')).toBe('/contacts/abc-7');
  });
  it('go to the module list when the id is missing', () => {
    expect(classicLinkTarget('policy', '')).toBe('/policies');
    expect(classicLinkTarget('claim', '?policyId=1')).toBe('/claims');
  });
  it('keep the id inside one path segment', () => {
    expect(classicLinkTarget('policy', '?policyId=..%2F..%2Fevil')).toBe('/policies/..%2F..%2Fevil');
    expect(classicLinkTarget('claim', '?claimId=%2F%2Fevil.example')).toBe('/claims/%2F%2Fevil.example');
  });
});
