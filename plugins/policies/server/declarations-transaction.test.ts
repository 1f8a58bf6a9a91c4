import { describe, expect, it } from 'vitest';
import { transactionOf } from './declarations.js';

type Revision = Parameters<typeof transactionOf>[0];
type Term = Parameters<typeof transactionOf>[1];
const revision = (number: number, revisionDate: string) => ({ number, revisionDate }) as Revision;
const term = (number: number, effectiveDate: string) => ({ number, effectiveDate }) as Term;

describe('the transaction a revision is, for form-inclusion rules', () => {
  it('calls the policy’s first revision new business', () => {
    expect(transactionOf(revision(1, '2026-01-01'), term(1, '2026-01-01'))).toBe('new_business');
  });
  it('calls a later term’s revision on its first day the renewal', () => {
    expect(transactionOf(revision(3, '2027-01-01'), term(2, '2027-01-01'))).toBe('renewal');
  });
  it('calls any other revision a change, in the first term or a renewal term', () => {
    expect(transactionOf(revision(2, '2026-03-15'), term(1, '2026-01-01'))).toBe('change');
    expect(transactionOf(revision(4, '2027-05-01'), term(2, '2027-01-01'))).toBe('change');
  });
});
