import type { ProductDefinition } from '@atrium/rating';
import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * The lines module's product definitions as other modules may read them (lines owns the tables).
 * The rules module type-checks rule components against the version in force and names the
 * products a rules project can be for. Only published versions count as "in force".
 */
export interface LinesProduct {
  id: number;
  name: string;
  label: string;
}

export interface ProductVersionInForce {
  productId: number;
  productName: string;
  versionId: number;
  versionLabel: string;
  /** YYYY-MM-DD */
  effectiveDate: string;
  /** Risk types (with parents), fields (types, options, defaults), items, calculations, rate tables. */
  definition: ProductDefinition;
}

export type LinesOntology = {
  /** Every product, by name. */
  products(tx: Queryable): Promise<LinesProduct[]>;
  /**
   * The published version of the product with the latest effective date on or before `asOf`
   * (YYYY-MM-DD); when none has started yet, the earliest published one. null: no such product, or
   * it has no published version.
   */
  versionInForce(tx: Queryable, productName: string, asOf: string): Promise<ProductVersionInForce | null>;
};

export const LINES_ONTOLOGY = createServiceRef<LinesOntology>('lines.ontology');
