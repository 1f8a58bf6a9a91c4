import type { Queryable, SeedContext } from '@atrium/sdk/server';
import { seedDemoPolicies } from './seed-demo.js';
import { billingSchedule, policyStatus, policyType } from './tables.js';

/** The payment plans every installation starts with (factors sum to 1; docs/policies.md, "Billing"). */
export const DEFAULT_SCHEDULES = [
  {
    id: 'annual',
    name: 'Paid in full',
    factors: ['1'],
    intervalMonths: 12,
    installmentFee: '0',
    cardFee: '0',
    paymentMethods: ['ach', 'card', 'check'],
    sortOrder: 1,
  },
  {
    id: 'semi_annual',
    name: 'Two payments',
    factors: ['0.5', '0.5'],
    intervalMonths: 6,
    installmentFee: '3.00',
    cardFee: '0',
    paymentMethods: ['ach', 'card', 'check'],
    sortOrder: 2,
  },
  {
    id: 'quarterly',
    name: 'Quarterly',
    factors: ['0.25', '0.25', '0.25', '0.25'],
    intervalMonths: 3,
    installmentFee: '3.00',
    cardFee: '1.00',
    paymentMethods: ['ach', 'card'],
    sortOrder: 3,
  },
  {
    id: 'monthly',
    name: 'Monthly (20% down)',
    factors: ['0.2', ...Array.from({ length: 10 }, () => '0.08')],
    intervalMonths: 1,
    installmentFee: '5.00',
    cardFee: '1.00',
    paymentMethods: ['ach', 'card'],
    sortOrder: 4,
  },
];

export const POLICY_STATUSES = [
  'Active',
  'Expired',
  'Canceled - Pro Rata',
  'Canceled - Short Rate',
  'Canceled - Flat',
  'Non-Renewed',
];

/** Reference data (schedules, types, statuses): also what a test server without demo data needs. */
export async function seedReferenceData(tx: Queryable): Promise<void> {
  await tx.insert(billingSchedule).values(DEFAULT_SCHEDULES).onConflictDoNothing();
  await tx
    .insert(policyType)
    .values([
      { name: 'Homeowners', productSlug: 'homeowners' },
      { name: 'Personal Auto', productSlug: 'personal_auto' },
    ])
    .onConflictDoNothing();
  await tx
    .insert(policyStatus)
    .values(POLICY_STATUSES.map((name) => ({ name })))
    .onConflictDoNothing();
}

export async function seedPolicies({ tx }: SeedContext): Promise<void> {
  await seedReferenceData(tx);
  await seedDemoPolicies(tx);
}
