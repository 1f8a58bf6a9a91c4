import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import { SYSTEM_POLICIES, SYSTEM_POLICY_VERSION } from './system-policies.js';
import { policy } from './tables.js';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** `1.10.0` > `1.9.2`: numeric per part; a missing or non-numeric part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The seed writes the system policies once; a later build that changes them (a new record
 * condition, a narrower grant) must reach databases seeded before it, or a security fix would
 * silently miss every existing installation. At start, each system policy stored with an older
 * version than this build's SYSTEM_POLICY_VERSION gets this build's statements and description;
 * its role assignments (which an administrator may have changed) are kept. A newer stored version
 * (an older build started on a newer database) is never lowered. A system policy this build no
 * longer defines is left alone. Runs under the caller's advisory lock; answers whether it changed
 * anything (the caller then bumps the access revision).
 */
export async function upgradeSystemPolicies(tx: Transaction): Promise<boolean> {
  let changed = false;
  for (const system of SYSTEM_POLICIES) {
    const [stored] = await tx
      .select({ id: policy.id, version: policy.version })
      .from(policy)
      .where(and(eq(policy.type, 'system'), sql`lower(${policy.name}) = lower(${system.name})`));
    if (!stored || compareVersions(stored.version, SYSTEM_POLICY_VERSION) >= 0) continue;
    await tx
      .update(policy)
      .set({
        statements: system.statements,
        description: system.description,
        version: SYSTEM_POLICY_VERSION,
        updatedAt: new Date(),
      })
      .where(eq(policy.id, stored.id));
    changed = true;
  }
  return changed;
}
