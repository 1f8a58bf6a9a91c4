import type { SeedContext } from '@atrium/sdk/server';
import { carrier, setting } from './tables.js';

/** The demo carrier every fresh database starts with, and the settings the platform reads. */
export const DEMO_CARRIER = {
  name: 'Atrium Mutual Insurance',
  // No website: the top bar's logo links only to a real carrier site (spec), never to a placeholder.
  website: null,
  logoUrl: '/carrier-logo.svg',
  isPrimary: true,
  liveStatus: false,
  liveStatusDescription: 'Demonstration site — no real policies or claims.',
  claimPrefix: 'CLM',
  policyPrefix: 'POL',
  enableAnalytics: false,
  trackAgentsInPendo: false,
  whitelistedForPendo: false,
} as const;

export const DEMO_SETTINGS = [
  { section: 'login', option: 'session-timeout', value: '480', description: 'Minutes of inactivity before sign-out.' },
  { section: 'site', option: 'help-url', value: '"https://help.atrium.example"', description: 'Help site link.' },
  {
    section: 'site',
    option: 'community-url',
    value: '"https://community.atrium.example"',
    description: 'Community forum link.',
  },
];

export async function seedDemoCarrier({ tx }: SeedContext): Promise<void> {
  await tx.insert(carrier).values(DEMO_CARRIER);
  await tx.insert(setting).values(DEMO_SETTINGS);
}
