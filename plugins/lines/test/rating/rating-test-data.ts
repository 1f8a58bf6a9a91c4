import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import { product, productVersion, rateTable, rateTableRow } from '../../server/tables.js';

/** Ids of the seeded demo catalog the rating tests work on (see server/seed/seed-demo-lines.ts). */
export async function demoProduct(db: Database, name: string) {
  const [row] = await db.select().from(product).where(eq(product.name, name));
  const versions = await db
    .select()
    .from(productVersion)
    .where(eq(productVersion.productId, row!.id))
    .orderBy(asc(productVersion.number));
  return {
    id: row!.id,
    published: versions.find((v) => v.status === 'published')!.id,
    draft: versions.find((v) => v.status === 'draft')!.id,
  };
}

/** Sets one row's value of a version's rate table (what an author's rate change does). */
export async function setRate(db: Database, versionId: number, table: string, rowOrder: number, value: string) {
  const [found] = await db
    .select({ id: rateTable.id })
    .from(rateTable)
    .where(and(eq(rateTable.productVersionId, versionId), eq(rateTable.name, table)));
  await db
    .update(rateTableRow)
    .set({ value })
    .where(and(eq(rateTableRow.rateTableId, found!.id), eq(rateTableRow.rowOrder, rowOrder)));
}

/** The demo Austin home (premium 1789.60 for a year from 2026-01-01) as a unified risk state. */
export const austinHome = {
  id: 'home-1',
  type: { name: 'home' },
  field_answers: { zip: '78701', construction: 'frame', protection_class: 6, year_built: 1998, roof_year: 2014 },
  items: [
    { name: 'dwelling', limit: '250000', deductible: '1000' },
    { name: 'personal_liability', limit: '300000' },
    { name: 'scheduled_jewelry' },
  ],
  children: [
    { id: 'ring', type: { name: 'scheduled_article' }, field_answers: { category: 'jewelry', appraised_value: 8000 } },
    { id: 'watch', type: { name: 'scheduled_article' }, field_answers: { category: 'watch', appraised_value: '4000' } },
  ],
};
