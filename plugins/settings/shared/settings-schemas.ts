import { z } from 'zod';

/**
 * The carrier settings form (docs/settings.md): one schema for the server's boundary and the web
 * form, with the messages both show.
 */
export const REQUIRED = 'This field is required.';

const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `The ${label} must be 500 characters or less.`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, `The ${label} must be a web address starting with https:// or http://.`);

const prefix = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(10, 'A prefix has at most 10 characters.')
  .regex(/^[A-Z0-9-]+$/, 'A prefix holds capital letters, digits and dashes only.');

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), schema.nullable());

export const carrierSettingsSchema = z.strictObject({
  name: z.string().trim().min(1, REQUIRED).max(200, 'The carrier name must be 200 characters or less.'),
  website: optional(httpUrl('website')),
  /** A web address, or a path on this site such as /carrier-logo.svg. */
  logo_url: optional(
    z.union([
      httpUrl('logo address'),
      z
        .string()
        .trim()
        .regex(/^\/[A-Za-z0-9._\-/]{1,200}$/, 'The logo must be a web address or a path on this site.'),
    ]),
  ),
  claim_prefix: prefix,
  policy_prefix: prefix,
  live_status: z.boolean(),
  live_status_description: z.string().trim().max(500, 'The description must be 500 characters or less.'),
  product_slug: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(50, 'The product slug has at most 50 characters.')
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'The product slug holds lower-case letters, digits and dashes only.'),
});

export type CarrierSettingsInput = z.input<typeof carrierSettingsSchema>;
export type CarrierSettingsValues = z.output<typeof carrierSettingsSchema>;
