import { and, eq } from 'drizzle-orm';
import type { Queryable, SeedContext } from '@atrium/sdk/server';
import { copyVersionDefinition } from '../catalog/copy-version.js';
import { fieldFormat, line, product, productVersion, rateTable, rateTableRow } from '../tables.js';
import { homeownersDefinition, homeownersScenarios } from './demo-homeowners.js';
import { personalAutoDefinition, personalAutoScenarios } from './demo-personal-auto.js';
import { writeDefinition } from './write-definition.js';

/** The field formats every installation offers (GET field-formats/). */
export const FIELD_FORMATS = [
  { name: 'currency', label: 'Currency', fieldTypes: ['number'], pattern: '$#,##0.00' },
  { name: 'percent', label: 'Percent', fieldTypes: ['number'], pattern: '0.00%' },
  { name: 'integer', label: 'Whole number', fieldTypes: ['number'], pattern: '#,##0' },
  { name: 'year', label: 'Year', fieldTypes: ['number'], pattern: '####' },
  { name: 'date', label: 'Date (MM/dd/yyyy)', fieldTypes: ['date'], pattern: 'MM/dd/yyyy' },
  { name: 'zip', label: 'ZIP code', fieldTypes: ['string'], pattern: '#####' },
  { name: 'phone', label: 'Phone number', fieldTypes: ['string'], pattern: '(###) ###-####' },
  { name: 'vin', label: 'VIN', fieldTypes: ['string'], pattern: '*****************' },
];

async function createProduct(
  tx: Queryable,
  values: { lineId: number; name: string; label: string; parentProductId?: number; depth?: number },
) {
  const [row] = await tx
    .insert(product)
    .values({
      lineId: values.lineId,
      name: values.name,
      label: values.label,
      parentProductId: values.parentProductId ?? null,
      depth: values.depth ?? 1,
      settings: { renumberAt: 'rewrite', terms: [12], baseTerm: 12 },
    })
    .returning({ id: product.id });
  return row!.id;
}

async function createVersion(
  tx: Queryable,
  values: {
    productId: number;
    number: number;
    label: string;
    status: 'draft' | 'published';
    effectiveDate: string;
    parentVersionId?: number;
    copiedFromVersionId?: number;
  },
) {
  const [row] = await tx
    .insert(productVersion)
    .values({
      productId: values.productId,
      number: values.number,
      label: values.label,
      status: values.status,
      effectiveDate: values.effectiveDate,
      parentVersionId: values.parentVersionId ?? null,
      copiedFromVersionId: values.copiedFromVersionId ?? null,
      publishedAt: values.status === 'published' ? new Date('2025-12-01T00:00:00Z') : null,
    })
    .returning({ id: productVersion.id });
  return row!.id;
}

/** Changes one row's value of a rate table of a version (the demo drafts' pending rate change). */
async function setRateValue(tx: Queryable, versionId: number, tableName: string, rowOrder: number, value: string) {
  const [table] = await tx
    .select({ id: rateTable.id })
    .from(rateTable)
    .where(and(eq(rateTable.productVersionId, versionId), eq(rateTable.name, tableName)));
  await tx
    .update(rateTableRow)
    .set({ value })
    .where(and(eq(rateTableRow.rateTableId, table!.id), eq(rateTableRow.rowOrder, rowOrder)));
}

/**
 * Demo lines: Homeowners (product `homeowners` with a child product `homeowners_tx` that overrides
 * the territory table) and Personal Auto (`personal_auto`). Each product has a published version 1
 * carrying its known-answer scenarios and a draft version 2 copied from it with a pending rate change
 * that leaves the known answers intact, so the draft can be published.
 */
export async function seedDemoLines({ tx }: SeedContext): Promise<void> {
  await tx.insert(fieldFormat).values(FIELD_FORMATS);

  const [homeLine] = await tx
    .insert(line)
    .values({ name: 'homeowners', label: 'Homeowners', description: 'Owner-occupied homes (HO-3).' })
    .returning({ id: line.id });
  const [autoLine] = await tx
    .insert(line)
    .values({ name: 'personal_auto', label: 'Personal Auto', description: 'Private passenger vehicles.' })
    .returning({ id: line.id });

  // Homeowners.
  const homeowners = await createProduct(tx, { lineId: homeLine!.id, name: 'homeowners', label: 'Homeowners HO-3' });
  const home1 = await createVersion(tx, {
    productId: homeowners,
    number: 1,
    label: '2026.1',
    status: 'published',
    effectiveDate: '2026-01-01',
  });
  await writeDefinition(
    tx,
    { productId: homeowners, versionId: home1 },
    { ...homeownersDefinition, scenarios: homeownersScenarios },
  );
  const home2 = await createVersion(tx, {
    productId: homeowners,
    number: 2,
    label: '2026.2',
    status: 'draft',
    effectiveDate: '2026-07-01',
    copiedFromVersionId: home1,
  });
  await copyVersionDefinition(tx, home1, home2);
  await setRateValue(tx, home2, 'territory_factor', 1, '1.2'); // 78702: 1.18 → 1.20

  // A child product: Texas homeowners, built on version 1, with its own territory table.
  const texas = await createProduct(tx, {
    lineId: homeLine!.id,
    name: 'homeowners_tx',
    label: 'Homeowners Texas',
    parentProductId: homeowners,
    depth: 2,
  });
  const texas1 = await createVersion(tx, {
    productId: texas,
    number: 1,
    label: '2026.1-TX',
    status: 'draft',
    effectiveDate: '2026-01-01',
    parentVersionId: home1,
  });
  await writeDefinition(
    tx,
    { productId: texas, versionId: texas1 },
    {
      riskTypes: [],
      rateTables: [
        {
          name: 'territory_factor',
          label: 'Texas territory factor',
          riskType: 'home',
          keys: [{ name: 'zip', label: 'ZIP', match: 'exact' }],
          default: '1.05',
          rows: [
            [{ zip: '78701' }, '1.1'],
            [{ zip: '77002' }, '1.4'],
            [{ zip: '75201' }, '1.22'],
          ],
        },
      ],
    },
  );

  // Personal Auto.
  const auto = await createProduct(tx, { lineId: autoLine!.id, name: 'personal_auto', label: 'Personal Auto' });
  const auto1 = await createVersion(tx, {
    productId: auto,
    number: 1,
    label: '2026.1',
    status: 'published',
    effectiveDate: '2026-01-01',
  });
  await writeDefinition(
    tx,
    { productId: auto, versionId: auto1 },
    { ...personalAutoDefinition, scenarios: personalAutoScenarios },
  );
  const auto2 = await createVersion(tx, {
    productId: auto,
    number: 2,
    label: '2026.2',
    status: 'draft',
    effectiveDate: '2026-07-01',
    copiedFromVersionId: auto1,
  });
  await copyVersionDefinition(tx, auto1, auto2);
  await setRateValue(tx, auto2, 'usage_factor', 2, '1.25'); // business use: 1.20 → 1.25
}
