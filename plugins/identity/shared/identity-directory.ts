import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * Identity's answer to "do these users and groups exist?", for modules that refer to people by
 * name (the access module's role assignments). Names come back as identity stores them: user names
 * lower-cased, group names in their own spelling; anything unknown is simply absent.
 */
export type IdentityDirectory = {
  existingUsernames(tx: Queryable, usernames: string[]): Promise<string[]>;
  existingGroupNames(tx: Queryable, names: string[]): Promise<string[]>;
};

export const identityDirectory = createServiceRef<IdentityDirectory>('identity.directory');
