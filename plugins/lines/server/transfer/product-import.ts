import { and, desc, eq, sql } from 'drizzle-orm';
import { checkProduct } from '@atrium/rating';
import type { ProblemIssue, Queryable } from '@atrium/sdk/server';
import { assertDraftVersion } from '../catalog/version-guard.js';
import { loadProductDefinition } from '../product-definition.js';
import { normalizeRows } from '../rate-tables/rate-table-store.js';
import { validateRateTable } from '../rate-tables/rate-table-validation.js';
import {
  calculation,
  fieldFormat,
  itemLimit,
  line,
  product,
  productVersion,
  rateTable,
  rateTableRow,
  riskField,
  riskItem,
  riskType,
  sequence,
} from '../tables.js';
import type { ProductDocument } from './product-document.js';

/**
 * Writes a product document into the database (inside the caller's transaction):
 *
 * - a product of that name that has a draft: with `overwrite`, the draft's definitions are replaced;
 *   without, the import is refused;
 * - a product of that name without a draft: a new draft version (next number) holds the document;
 * - no such product: the product (and its line, when missing) is created with version 1 as a draft.
 *
 * Afterwards the product is compiled with the rating engine; any problem fails the import (the
 * transaction rolls back). Problems are returned as issues pointing into the document.
 */
export class ImportFailed extends Error {
  constructor(readonly issues: ProblemIssue[]) {
    super(issues.map((i) => i.detail).join(' '));
  }
}

export interface ImportOutcome {
  productId: number;
  versionId: number;
  created: 'product' | 'version' | 'overwritten';
}

const lower = (column: Parameters<typeof sql>[1]) => sql`lower(${column})`;

export async function importProductDocument(
  tx: Queryable,
  doc: ProductDocument,
  options: { overwrite: boolean },
): Promise<ImportOutcome> {
  const [existing] = await tx
    .select()
    .from(product)
    .where(sql`${lower(product.name)} = lower(${doc.product.name})`)
    .limit(1);
  let productId: number;
  let versionId: number;
  let created: ImportOutcome['created'];
  if (existing) {
    productId = existing.id;
    const [draft] = await tx
      .select()
      .from(productVersion)
      .where(and(eq(productVersion.productId, existing.id), eq(productVersion.status, 'draft')))
      .limit(1);
    if (draft) {
      if (!options.overwrite) {
        throw new ImportFailed([
          {
            detail: `Product '${existing.name}' already has a draft version (${draft.label}); import with overwrite to replace its definitions.`,
            source: { parameter: 'overwrite' },
            code: 'draft_exists',
          },
        ]);
      }
      await assertDraftVersion(tx, draft.id);
      await clearVersion(tx, draft.id);
      await tx
        .update(productVersion)
        .set({
          premiumRoundingPlaces: doc.version.premium_rounding.places,
          premiumRoundingMode: doc.version.premium_rounding.mode,
          updatedAt: new Date(),
        })
        .where(eq(productVersion.id, draft.id));
      versionId = draft.id;
      created = 'overwritten';
    } else {
      const [last] = await tx
        .select({ number: productVersion.number })
        .from(productVersion)
        .where(eq(productVersion.productId, existing.id))
        .orderBy(desc(productVersion.number))
        .limit(1);
      const [version] = await tx
        .insert(productVersion)
        .values({
          productId: existing.id,
          number: (last?.number ?? 0) + 1,
          label: doc.version.label,
          status: 'draft',
          effectiveDate: doc.version.effective_date,
          premiumRoundingPlaces: doc.version.premium_rounding.places,
          premiumRoundingMode: doc.version.premium_rounding.mode,
        })
        .returning();
      versionId = version!.id;
      created = 'version';
    }
  } else {
    let [lineRow] = await tx
      .select()
      .from(line)
      .where(sql`${lower(line.name)} = lower(${doc.line.name})`)
      .limit(1);
    if (!lineRow) [lineRow] = await tx.insert(line).values({ name: doc.line.name, label: doc.line.label }).returning();
    const [productRow] = await tx
      .insert(product)
      .values({
        lineId: lineRow!.id,
        name: doc.product.name,
        label: doc.product.label,
        description: doc.product.description,
        settings: doc.product.settings,
      })
      .returning();
    productId = productRow!.id;
    const [version] = await tx
      .insert(productVersion)
      .values({
        productId,
        number: 1,
        label: doc.version.label,
        status: 'draft',
        effectiveDate: doc.version.effective_date,
        premiumRoundingPlaces: doc.version.premium_rounding.places,
        premiumRoundingMode: doc.version.premium_rounding.mode,
      })
      .returning();
    versionId = version!.id;
    created = 'product';
  }
  await writeDefinitions(tx, doc, versionId);
  const { problems } = checkProduct(await loadProductDefinition(tx, productId, versionId));
  if (problems.length > 0) {
    throw new ImportFailed(
      problems.map((p) => ({ detail: p.message, code: p.code, source: { pointer: pointerOf(doc, p) } })),
    );
  }
  return { productId, versionId, created };
}

function pointerOf(
  doc: ProductDocument,
  p: { riskType?: string; calculation?: string; field?: string; table?: string },
) {
  if (p.table) {
    const t = doc.rate_tables.findIndex((x) => x.name === p.table);
    if (t >= 0) return `/rate_tables/${t}`;
  }
  const r = doc.risk_types.findIndex((x) => x.name === p.riskType);
  if (r < 0) return '/risk_types';
  if (p.calculation) {
    const c = doc.risk_types[r]!.calculations.findIndex((x) => x.name === p.calculation);
    if (c >= 0) return `/risk_types/${r}/calculations/${c}/calculation`;
  }
  if (p.field) {
    const f = doc.risk_types[r]!.fields.findIndex((x) => x.name === p.field);
    if (f >= 0) return `/risk_types/${r}/fields/${f}/formula`;
  }
  return `/risk_types/${r}`;
}

/** Removes every definition row of a version (its rate table rows and limits go with them). */
async function clearVersion(tx: Queryable, versionId: number) {
  await tx.delete(calculation).where(eq(calculation.productVersionId, versionId));
  await tx.delete(itemLimit).where(eq(itemLimit.productVersionId, versionId));
  await tx.delete(riskField).where(eq(riskField.productVersionId, versionId));
  await tx.delete(riskItem).where(eq(riskItem.productVersionId, versionId));
  await tx.delete(rateTable).where(eq(rateTable.productVersionId, versionId));
  await tx.delete(sequence).where(eq(sequence.productVersionId, versionId));
  // Children before parents: the parent reference cascades, but delete them all in one go.
  await tx.delete(riskType).where(eq(riskType.productVersionId, versionId));
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : String(value);

async function writeDefinitions(tx: Queryable, doc: ProductDocument, versionId: number) {
  const issues: ProblemIssue[] = [];
  const formats = new Map(
    (await tx.select({ id: fieldFormat.id, name: fieldFormat.name }).from(fieldFormat)).map((f) => [
      f.name.toLowerCase(),
      f.id,
    ]),
  );
  // Risk types: parents first, whatever order the document lists them in.
  const typeIds = new Map<string, number>();
  const pending = doc.risk_types.map((t, index) => ({ t, index }));
  const seen = new Set<string>();
  for (const { t, index } of pending) {
    if (seen.has(t.name.toLowerCase())) {
      issues.push({
        detail: `Risk type '${t.name}' is listed twice.`,
        source: { pointer: `/risk_types/${index}/name` },
      });
    }
    seen.add(t.name.toLowerCase());
  }
  if (issues.length > 0) throw new ImportFailed(issues);
  let progress = true;
  while (pending.length > 0 && progress) {
    progress = false;
    for (let i = 0; i < pending.length; i++) {
      const { t } = pending[i]!;
      const parentId = t.parent === null ? null : typeIds.get(t.parent.toLowerCase());
      if (parentId === undefined) continue;
      const [row] = await tx
        .insert(riskType)
        .values({
          productVersionId: versionId,
          parentRiskTypeId: parentId,
          name: t.name,
          label: t.label,
          sequence: t.sequence,
          premiumCalculation: t.premium_calculation,
        })
        .returning({ id: riskType.id });
      typeIds.set(t.name.toLowerCase(), row!.id);
      pending.splice(i, 1);
      i--;
      progress = true;
    }
  }
  for (const { t, index } of pending) {
    issues.push({
      detail: `Risk type '${t.name}' names a parent '${t.parent}' that is not in the document (or the parents form a loop).`,
      source: { pointer: `/risk_types/${index}/parent` },
    });
  }
  if (issues.length > 0) throw new ImportFailed(issues);

  for (const [r, t] of doc.risk_types.entries()) {
    const riskTypeId = typeIds.get(t.name.toLowerCase())!;
    t.fields.forEach((f, i) => {
      if (f.type === 'computed' && !f.formula) {
        issues.push({
          detail: `Computed field '${f.name}' needs a formula.`,
          source: { pointer: `/risk_types/${r}/fields/${i}/formula` },
        });
      }
    });
    if (issues.length > 0) throw new ImportFailed(issues);
    if (t.fields.length > 0) {
      await tx.insert(riskField).values(
        t.fields.map((f) => ({
          productVersionId: versionId,
          riskTypeId,
          name: f.name,
          label: f.label,
          type: f.type,
          defaultValue: f.default,
          defaultLabel: f.default_label,
          source: f.source,
          order: f.order,
          required: f.required,
          formatId: f.format === null ? null : (formats.get(f.format.toLowerCase()) ?? null),
          options: f.options,
          formula: f.type === 'computed' ? f.formula : null,
          roundPlaces: f.round_places,
          roundMode: f.round_places === null ? null : (f.round_mode ?? 'half-up'),
        })),
      );
    }
    const itemIds = new Map<string, number>();
    for (const item of t.items) {
      const [row] = await tx
        .insert(riskItem)
        .values({
          productVersionId: versionId,
          riskTypeId,
          name: item.name,
          label: item.label,
          presence: item.presence,
          type: item.type,
          fullyEarned: item.fully_earned,
          order: item.order,
          premiumCalculation: item.premium_calculation,
        })
        .returning({ id: riskItem.id });
      itemIds.set(item.name.toLowerCase(), row!.id);
      if (item.limits.length > 0) {
        await tx.insert(itemLimit).values(
          item.limits.map((l) => ({
            productVersionId: versionId,
            riskItemId: row!.id,
            kind: l.kind,
            name: l.name,
            label: l.label,
            defaultValue: text(l.default),
            minValue: text(l.min),
            maxValue: text(l.max),
            options: l.options.map((o) => String(o)),
            order: l.order,
          })),
        );
      }
    }
    for (const [c, calc] of t.calculations.entries()) {
      const itemId = calc.item === null ? null : itemIds.get(calc.item.toLowerCase());
      if (itemId === undefined) {
        issues.push({
          detail: `Calculation '${calc.name}' names an item '${calc.item}' that risk type '${t.name}' does not have.`,
          source: { pointer: `/risk_types/${r}/calculations/${c}/item` },
        });
        continue;
      }
      await tx.insert(calculation).values({
        productVersionId: versionId,
        riskTypeId,
        riskItemId: itemId,
        name: calc.name,
        label: calc.label,
        calculation: calc.calculation,
        order: calc.order,
        roundPlaces: calc.round_places,
        roundMode: calc.round_places === null ? null : (calc.round_mode ?? 'half-up'),
      });
    }
  }
  for (const [index, table] of doc.rate_tables.entries()) {
    const riskTypeId = table.risk_type === null ? null : typeIds.get(table.risk_type.toLowerCase());
    if (riskTypeId === undefined) {
      issues.push({
        detail: `Rate table '${table.name}' names a risk type '${table.risk_type}' that is not in the document.`,
        source: { pointer: `/rate_tables/${index}/risk_type` },
      });
      continue;
    }
    const rows = normalizeRows(table.rows);
    const keys = table.key_columns.map((k) => ({ name: k.name, match: k.match }));
    const problems = validateRateTable(
      { name: table.name, keys, interpolate: table.interpolate, default: text(table.default) },
      rows,
    );
    for (const p of problems) {
      issues.push({ detail: `Rate table '${table.name}': ${p.message}`, source: { pointer: `/rate_tables/${index}` } });
    }
    if (problems.length > 0) continue;
    const [row] = await tx
      .insert(rateTable)
      .values({
        productVersionId: versionId,
        riskTypeId,
        name: table.name,
        label: table.label,
        keyColumns: table.key_columns,
        interpolate: table.interpolate,
        defaultValue: text(table.default),
        order: table.order,
      })
      .returning({ id: rateTable.id });
    for (let start = 0; start < rows.length; start += 1000) {
      await tx.insert(rateTableRow).values(
        rows.slice(start, start + 1000).map((r, i) => ({
          rateTableId: row!.id,
          keys: r.keys as Record<string, string | { from: string | null; to: string | null }>,
          value: r.value,
          rowOrder: start + i,
        })),
      );
    }
  }
  if (doc.sequences.length > 0) {
    await tx.insert(sequence).values(
      doc.sequences.map((s) => ({
        productVersionId: versionId,
        name: s.name,
        label: s.label,
        prefix: s.prefix,
        suffix: s.suffix,
        padding: s.padding,
        start: s.start,
        increment: s.increment,
        nextValue: s.start,
      })),
    );
  }
  if (issues.length > 0) throw new ImportFailed(issues);
}
