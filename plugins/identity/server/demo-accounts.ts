import type { SeedContext } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import type { PasswordHasher } from './password-hasher.js';
import { user } from './tables.js';

/** Every demo account signs in with this password. */
export const DEMO_PASSWORD = 'Atrium!demo1';
/** The authenticator-app secret of mfa@atrium.test (the RFC 4648 example "Hello!\xDE\xAD\xBE\xEF"). */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export const DEMO_SMS_PHONE = '+15555550123';

interface DemoAccount {
  username: string;
  name: string;
  roles: string[];
  isEmployee: boolean;
  contactId?: string;
  agencyId?: string;
  phoneNumber?: string;
  smsMfa?: boolean;
  totp?: boolean;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { username: 'admin@atrium.test', name: 'Ada Administrator', roles: ['Administrator'], isEmployee: true },
  { username: 'adjuster@atrium.test', name: 'Casey Adjuster', roles: ['Claims Adjuster'], isEmployee: true },
  {
    username: 'supervisor@atrium.test',
    name: 'Sloane Supervisor',
    roles: ['Claims Supervisor'],
    isEmployee: true,
  },
  { username: 'underwriter@atrium.test', name: 'Uma Underwriter', roles: ['Underwriter'], isEmployee: true },
  { username: 'author@atrium.test', name: 'Parker Author', roles: ['Product and Rules Author'], isEmployee: true },
  {
    username: 'multi@atrium.test',
    name: 'Morgan Multirole',
    roles: ['Claims Adjuster', 'Underwriter'],
    isEmployee: true,
  },
  { username: 'mfa@atrium.test', name: 'Max Authenticator', roles: ['Underwriter'], isEmployee: true, totp: true },
  {
    username: 'sms@atrium.test',
    name: 'Sam Textmessage',
    roles: ['Claims Adjuster'],
    isEmployee: true,
    phoneNumber: DEMO_SMS_PHONE,
    smsMfa: true,
  },
  // Their contact ids are the producers of the demo policies (claims' demo seed, DEMO_PRODUCERS).
  {
    username: 'agent@agency.test',
    name: 'Alex Agent',
    roles: ['Agent'],
    isEmployee: false,
    contactId: 'CON-AGENT-ALEX',
    agencyId: 'CON-AGENCY-HARBOUR',
  },
  {
    username: 'agency@agency.test',
    name: 'Harbour Agency',
    roles: ['Agency'],
    isEmployee: false,
    agencyId: 'CON-AGENCY-HARBOUR',
  },
];

export async function seedDemoAccounts({ tx }: SeedContext, hasher: PasswordHasher, clock: Clock): Promise<void> {
  const now = clock.now();
  const rows = [];
  // Each account gets its own salt; hashing them side by side uses libuv's thread pool.
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => hasher.hash(DEMO_PASSWORD)));
  for (const [index, account] of DEMO_ACCOUNTS.entries()) {
    rows.push({
      username: account.username,
      email: account.username,
      emailVerified: true,
      name: account.name,
      phoneNumber: account.phoneNumber ?? null,
      phoneNumberVerified: !!account.phoneNumber,
      passwordHash: hashes[index]!,
      status: 'CONFIRMED',
      isEmployee: account.isEmployee,
      contactId: account.contactId ?? null,
      agencyId: account.agencyId ?? null,
      roles: account.roles,
      smsMfaEnabled: !!account.smsMfa,
      softwareTokenMfaEnabled: !!account.totp,
      preferredMfa: account.totp ? 'SOFTWARE_TOKEN_MFA' : account.smsMfa ? 'SMS_MFA' : null,
      totpSecret: account.totp ? DEMO_TOTP_SECRET : null,
      passwordChangedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }
  await tx.insert(user).values(rows).onConflictDoNothing();
}
