import { z } from 'zod';

/**
 * Argument schemas of the claims commands, loaded the first time such a command runs (plugin.ts
 * names them through a loader) so that zod stays out of the shell's initial JavaScript.
 */
export const openClaimArgs = z.object({ number: z.string().min(1) }).optional();
