import { z } from '@atrium/sdk/server';

/** YYYY-MM-DD or an ISO timestamp (its date part), else MM/DD/YYYY (spec: date parsing). */
export const day = z
  .string()
  .trim()
  .transform((value, ctx) => {
    let y: number, m: number, d: number;
    const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value);
    const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
    if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
    else {
      ctx.addIssue({ code: 'custom', message: 'Enter a date as YYYY-MM-DD or MM/DD/YYYY.' });
      return z.NEVER;
    }
    const date = new Date(Date.UTC(y, m - 1, d));
    if (
      date.getUTCFullYear() !== y ||
      date.getUTCMonth() !== m - 1 ||
      date.getUTCDate() !== d ||
      y < 1900 ||
      y > 2200
    ) {
      ctx.addIssue({ code: 'custom', message: `${value} is not a date.` });
      return z.NEVER;
    }
    return date.toISOString().slice(0, 10);
  });

export const quoteNumberParams = z.strictObject({ number: z.string().trim().min(1).max(40) });
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);
export const rulesAction = z.enum(['none', 'evaluate', 'validate']).optional();

export const money = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,12}(\.\d{1,2})?$/.test(v), 'Enter an amount with at most 2 decimals.');

export const answerValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const riskStateInput = z.strictObject({
  type: z.object({ name: z.string() }).optional(),
  field_answers: z.record(z.string().max(100), answerValue).default({}),
  items: z
    .array(
      z.strictObject({
        id: z.number().int().optional(),
        name: z.string().min(1).max(100),
        limit: money.nullable().optional(),
        deductible: money.nullable().optional(),
        limits: z.record(z.string().max(100), money).optional(),
      }),
    )
    .max(100)
    .optional(),
});

export const namedInsuredInput = z.union([
  z.strictObject({ contact_id: z.string().trim().min(1).max(50) }),
  z.strictObject({ name: z.string().trim().min(1, 'Enter the insured’s name.').max(200) }),
]);

export const createQuoteBody = z.strictObject({
  product_name: z.string().trim().min(1, 'Choose a product.').max(200),
  effective_date: day,
  expiration_date: day.optional(),
  named_insured: namedInsuredInput,
  agent_contact_id: z.string().trim().min(1).max(50).optional(),
  state: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, 'Enter a two-letter state.')
    .optional(),
});

export const updateQuoteBody = z.strictObject({
  effective_date: day.optional(),
  expiration_date: day.optional(),
  named_insured: namedInsuredInput.optional(),
  state: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, 'Enter a two-letter state.')
    .nullable()
    .optional(),
});

const pageNumber = z.coerce.number().int().min(1).max(100_000);

export const listQuery = z
  .object({
    include: z.string().max(200).optional(),
    search: z.string().trim().max(200).optional(),
    'page[size]': z.coerce.number().int().min(1).max(200).default(25),
    'page[number]': pageNumber.default(1),
    'filter[status]': z.string().max(200).optional(),
    'filter[product_name]': z.string().max(200).optional(),
    'filter[owner]': z.string().max(200).optional(),
    'filter[is_bound]': z.enum(['true', 'false']).optional(),
    'filter[agent]': z.string().max(50).optional(),
    sort: z.enum(['-updated_at', 'updated_at', 'number', '-number', 'effective_date', '-effective_date']).optional(),
  })
  .strict();
