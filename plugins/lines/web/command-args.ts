import { z } from 'zod';

/**
 * Argument schemas of the lines commands, loaded the first time such a command runs (plugin.ts
 * names them through a loader) so that zod stays out of the shell's initial JavaScript.
 */
export const openLineArgs = z.object({ lineName: z.string().min(1) }).optional();

export const openProductVersionArgs = z
  .object({ lineName: z.string().min(1), versionId: z.number().int().positive() })
  .optional();

export const openRiskTypeArgs = z
  .object({
    lineName: z.string().min(1),
    productName: z.string().min(1),
    riskTypeName: z.string().min(1),
    versionId: z.number().int().positive().optional(),
  })
  .optional();
