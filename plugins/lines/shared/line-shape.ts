import { defineResourceShape } from '@atrium/sdk/shared';
import { z } from 'zod';

/**
 * A line of business as both halves see it (`lines/lines/`, plain style): every line at once, ordered
 * by label, `search` (or `name`) for a name or label that contains the text.
 */
const lineName = z
  .string()
  .trim()
  .min(1, 'A line needs a name.')
  .max(100)
  .regex(/^[a-z][a-z0-9_-]*$/, "A line name uses lower-case letters, digits, '_' and '-', starting with a letter.");

export const lineShape = defineResourceShape({
  type: 'line',
  path: '/lines/lines/',
  style: 'plain',
  unpaged: true,
  attributes: {
    name: lineName,
    label: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
  },
  readOnly: ['products_count', 'latest_product'],
  filters: { search: { kind: 'search', aliases: ['name'], columns: ['name', 'label'] } },
  orderings: ['label'],
});
