import { defineEvent, z } from '@atrium/sdk/server';

/**
 * The events identity emits (docs/identity.md, "Events"), each written to the outbox in the
 * transaction of the change: who gained, changed or lost access to the portal. Never a secret — no
 * password, code or token is in any of them.
 */
const userData = z.object({
  user_id: z.string(),
  username: z.string(),
  name: z.string(),
  is_employee: z.boolean(),
  is_active: z.boolean(),
  contact_id: z.string().nullable(),
  /** The administrator who made the change. */
  changed_by: z.string(),
  /** The attributes a change named (`identity.user.updated`); empty otherwise. */
  changed: z.array(z.string()),
});

export const userCreated = defineEvent({
  topic: 'identity.user.created',
  schemaId: 'identity.user',
  version: '1.0.0',
  description: 'A user was created by an administrator (they sign in with a temporary password).',
  data: userData,
});

export const userUpdated = defineEvent({
  topic: 'identity.user.updated',
  schemaId: 'identity.user',
  version: '1.0.0',
  description: "A user's attributes changed; `changed` names the attributes.",
  data: userData,
});

export const userDeactivated = defineEvent({
  topic: 'identity.user.deactivated',
  schemaId: 'identity.user',
  version: '1.0.0',
  description: 'A user was deactivated: they can no longer sign in and their sessions were ended.',
  data: userData,
});

export const IDENTITY_EVENTS = [userCreated, userUpdated, userDeactivated];

/** The event data of a user row. */
export const userEventData = (
  row: {
    id: string;
    username: string;
    name: string;
    isEmployee: boolean;
    enabled: boolean;
    contactId: string | null;
  },
  changedBy: string,
  changed: string[] = [],
) => ({
  user_id: row.id,
  username: row.username,
  name: row.name,
  is_employee: row.isEmployee,
  is_active: row.enabled,
  contact_id: row.contactId,
  changed_by: changedBy,
  changed,
});
