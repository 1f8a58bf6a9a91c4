import { defineEvent, z, type EventDefinition } from '@atrium/sdk/server';

/**
 * The events access emits (docs/access.md, "Events"): who changed which role, policy or role
 * assignment, written to the outbox in the transaction of the change (routes/access-write.ts), so
 * that a security team's SIEM or an integration hears of every change to who may do what.
 */
const changeData = z.object({
  /** The role's, policy's or assignment's id; for an import, null. */
  id: z.string().nullable(),
  /** The role's or policy's name; an assignment's role name; for an import, what was imported. */
  name: z.string(),
  /** For an assignment: the user or group it assigns (`user:…`, `group:…`). */
  subject: z.string().nullable(),
  changed_by: z.string(),
});
export type AccessChangeData = z.infer<typeof changeData>;

const ENTITIES = ['role', 'policy', 'assignment'] as const;
const ACTIONS = ['created', 'updated', 'deleted'] as const;
export type AccessEntity = (typeof ENTITIES)[number] | 'configuration';
export type AccessAction = (typeof ACTIONS)[number] | 'imported';

const describe: Record<(typeof ENTITIES)[number], string> = {
  role: 'A role',
  policy: 'A custom access policy',
  assignment: 'A role assignment (a user or group given a role)',
};

const definitions = new Map<string, EventDefinition<typeof changeData>>();
for (const entity of ENTITIES) {
  for (const action of ACTIONS) {
    definitions.set(
      `${entity}.${action}`,
      defineEvent({
        topic: `access.${entity}.${action}`,
        schemaId: 'access.change',
        version: '1.0.0',
        description: `${describe[entity]} was ${action}.`,
        data: changeData,
      }),
    );
  }
}
definitions.set(
  'configuration.imported',
  defineEvent({
    topic: 'access.configuration.imported',
    schemaId: 'access.change',
    version: '1.0.0',
    description: 'Roles, policies and assignments were imported from an export file.',
    data: changeData,
  }),
);

export const ACCESS_EVENTS = [...definitions.values()];

export function accessEvent(entity: AccessEntity, action: AccessAction): EventDefinition<typeof changeData> {
  const found = definitions.get(`${entity}.${action}`);
  if (!found) throw new Error(`No access event for ${entity} ${action}.`);
  return found;
}
