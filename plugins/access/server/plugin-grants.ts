import { and, eq, sql } from 'drizzle-orm';
import type { Database, DefaultGrants, PermissionDefaultsInstaller, Permission } from '@atrium/sdk/server';
import type { Statement } from '../shared/statement-schema.js';
import { bumpRevision } from './access-revision.js';
import { upgradeSystemPolicies } from './system-policy-upgrade.js';
import { pluginGrant, policy, policyAssignment, role } from './tables.js';

/** Any fixed 64-bit key: processes starting at once apply the defaults one after another. */
const PLUGIN_GRANT_LOCK_KEY = 7_245_118_017;

/** The name Access shows for a plugin's default policy of one role: it says where the grants came from. */
export function pluginPolicyName(plugin: { id: string; title?: string }, roleName: string): string {
  return `${plugin.title ?? plugin.id} defaults: ${roleName} (plugin ${plugin.id})`;
}

/** One allow statement per resource, its actions in declaration order. */
export function defaultStatements(permissions: readonly Permission[]): Statement[] {
  const byResource = new Map<string, string[]>();
  for (const permission of permissions) {
    const actions = byResource.get(permission.resource) ?? [];
    if (!actions.includes(permission.action)) actions.push(permission.action);
    byResource.set(permission.resource, actions);
  }
  return [...byResource].map(([resource, actions]) => ({ effect: 'allow', actions, resources: [resource] }));
}

/**
 * Keeps each plugin's default grants as read-only system policies, one per plugin and role, given
 * to that role. A plugin seen for the first time gets its policies; a plugin whose grant version
 * rose has them rewritten (and those of roles it no longer grants removed); otherwise nothing is
 * touched. The access module's own system policies are brought up to this build's version first.
 * Roles that do not exist (an unseeded database) are skipped. Custom policies and the
 * assignments an administrator made are never read or written here.
 */
export function createPermissionDefaultsInstaller(db: Database): PermissionDefaultsInstaller {
  return {
    async apply(plugins) {
      const declared = plugins.filter(
        (plugin): plugin is typeof plugin & { defaultGrants: DefaultGrants } => !!plugin.defaultGrants,
      );
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${PLUGIN_GRANT_LOCK_KEY})`);
        // The installation's own system policies follow the same rule as plugins' defaults: a
        // newer build's definitions replace an older one's (system-policy-upgrade.ts).
        let changed = await upgradeSystemPolicies(tx);
        for (const plugin of declared) {
          const grants = plugin.defaultGrants;
          const applied = await tx.select().from(pluginGrant).where(eq(pluginGrant.plugin, plugin.id));
          if (applied.length > 0 && applied.every((row) => row.grantVersion >= grants.grantVersion)) continue;
          const version = `${grants.grantVersion}.0.0`;
          for (const grant of grants.roles) {
            const [target] = await tx
              .select({ id: role.id })
              .from(role)
              .where(sql`lower(${role.name}) = lower(${grant.role})`);
            if (!target) continue;
            const statements = defaultStatements(grant.permissions);
            const current = applied.find((row) => row.roleName === grant.role);
            if (current) {
              await tx
                .update(policy)
                .set({ statements, version, updatedAt: new Date() })
                .where(eq(policy.id, current.policyId));
              await tx
                .update(pluginGrant)
                .set({ grantVersion: grants.grantVersion, appliedAt: new Date() })
                .where(and(eq(pluginGrant.plugin, plugin.id), eq(pluginGrant.roleName, grant.role)));
            } else {
              const [created] = await tx
                .insert(policy)
                .values({
                  name: pluginPolicyName(plugin, grant.role),
                  description: `Default grants of the ${plugin.title ?? plugin.id} module for ${grant.role}, kept by the module (grant version ${grants.grantVersion}). Change access with custom policies.`,
                  version,
                  type: 'system',
                  statements,
                })
                .returning({ id: policy.id });
              await tx.insert(policyAssignment).values({ policyId: created!.id, roleId: target.id });
              await tx.insert(pluginGrant).values({
                plugin: plugin.id,
                roleName: grant.role,
                policyId: created!.id,
                grantVersion: grants.grantVersion,
              });
            }
            changed = true;
          }
          // Roles the new version no longer grants lose the plugin's policy (the row goes with it).
          for (const row of applied) {
            if (grants.roles.some((grant) => grant.role === row.roleName)) continue;
            await tx.delete(policy).where(eq(policy.id, row.policyId));
            changed = true;
          }
        }
        if (changed) await bumpRevision(tx);
      });
    },
  };
}
