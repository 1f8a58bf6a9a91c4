import type { SeedContext } from '@atrium/sdk/server';

/** Demo lines (Homeowners, Personal Auto); filled in below the skeleton. */
export async function seedDemoLines(context: SeedContext): Promise<void> {
  void context;
}
