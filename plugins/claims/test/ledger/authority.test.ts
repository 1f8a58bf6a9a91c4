import { describe, expect, it } from 'vitest';
import {
  applicableLimit,
  decideAuthority,
  describeExceeded,
  type AuthorityLimit,
} from '../../server/ledger/authority.js';
import { parseMoney } from '../../server/ledger/money.js';

const limits: AuthorityLimit[] = [
  {
    id: 1,
    subjectType: 'role',
    subject: 'Claims Adjuster',
    kind: 'payment',
    perTransaction: parseMoney('5000.00'),
    perCoverage: parseMoney('25000.00'),
    perClaim: parseMoney('50000.00'),
  },
  {
    id: 2,
    subjectType: 'user',
    subject: 'senior@atrium.test',
    kind: 'payment',
    perTransaction: parseMoney('20000'),
    perCoverage: null,
    perClaim: null,
  },
  {
    id: 3,
    subjectType: 'role',
    subject: 'Claims Adjuster',
    kind: 'reserve',
    perTransaction: parseMoney('10000'),
    perCoverage: null,
    perClaim: null,
  },
];

const ask = (amount: string, coverage = amount, claim = amount) => ({
  kind: 'payment' as const,
  amount: parseMoney(amount),
  coverageTotalAfter: parseMoney(coverage),
  claimTotalAfter: parseMoney(claim),
});

describe('authority limits', () => {
  it("prefers the user's own row over the role's, by kind", () => {
    expect(applicableLimit(limits, 'payment', 'Senior@Atrium.test', 'Claims Adjuster')?.id).toBe(2);
    expect(applicableLimit(limits, 'payment', 'adjuster@atrium.test', 'Claims Adjuster')?.id).toBe(1);
    expect(applicableLimit(limits, 'reserve', 'senior@atrium.test', 'Claims Adjuster')?.id).toBe(3);
    expect(applicableLimit(limits, 'payment', 'admin@atrium.test', 'Administrator')).toBeNull();
    expect(applicableLimit(limits, 'payment', 'adjuster@atrium.test', null)).toBeNull();
  });

  it('allows up to and including the cap, refuses one cent more', () => {
    const limit = limits[0]!;
    expect(decideAuthority(limit, ask('5000.00')).withinAuthority).toBe(true);
    const over = decideAuthority(limit, ask('5000.01'));
    expect(over.withinAuthority).toBe(false);
    expect(over.exceeded).toEqual([{ dimension: 'per_transaction', limit: '5000.00', value: '5000.01' }]);
    expect(describeExceeded(over)).toBe('5000.01 over the limit of 5000.00 per transaction');
  });

  it('checks the coverage and claim totals after the transaction', () => {
    const limit = limits[0]!;
    const decision = decideAuthority(limit, ask('100.00', '25000.01', '50000.01'));
    expect(decision.exceeded.map((e) => e.dimension)).toEqual(['per_coverage', 'per_claim']);
    expect(decideAuthority(limit, ask('100.00', '25000.00', '50000.00')).withinAuthority).toBe(true);
  });

  it('needs no authority without a limit or for a decrease', () => {
    expect(decideAuthority(null, ask('999999.00')).withinAuthority).toBe(true);
    expect(decideAuthority(limits[0]!, ask('-900000.00', '900000', '900000')).withinAuthority).toBe(true);
  });
});
