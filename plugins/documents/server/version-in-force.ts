import { and, desc, eq, lte } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { version } from './tables.js';

export type TemplateVersionRow = typeof version.$inferSelect;

/**
 * The version of a template that a document dated `date` is rendered with: the published version
 * with the latest effective date on or before it (the highest number if two share that date), or
 * null when none is in force yet. Production documents, declarations and quote documents all pick
 * their version this way.
 */
export async function versionInForce(
  tx: Queryable,
  templateId: number,
  date: string,
): Promise<TemplateVersionRow | null> {
  const [chosen] = await tx
    .select()
    .from(version)
    .where(and(eq(version.templateId, templateId), eq(version.status, 'published'), lte(version.effectiveDate, date)))
    .orderBy(desc(version.effectiveDate), desc(version.number))
    .limit(1);
  return chosen ?? null;
}

/** What a caller answers when versionInForce finds none. */
export function noVersionInForce(templateName: string, date: string): string {
  return `No published version of "${templateName}" is effective on ${date}.`;
}
