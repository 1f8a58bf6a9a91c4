/**
 * What the GraphQL schema reads, as plain records. The schema does not know the tables: the
 * database source (database-source.ts) answers these questions, so the schema, its permission checks
 * and its depth limit can be tested on their own.
 */
export interface GqlLine {
  id: number;
  name: string;
  label: string | null;
}

export interface GqlVersion {
  id: number;
  productId: number;
  name: string | null;
  status: string;
  effectiveDate: string | null;
}

export interface GqlProduct {
  id: number;
  lineId: number;
  name: string;
  label: string | null;
  parentProductId: number | null;
  settings: unknown;
}

/** A risk type as read in one product version. */
export interface GqlRiskType {
  id: number;
  productId: number;
  versionId: number;
  name: string;
  label: string | null;
  sequence: string | null;
  parentRiskTypeId: number | null;
}

export interface GqlRiskField {
  id: number;
  name: string;
  label: string | null;
  default: string | null;
  source: string | null;
  order: number;
  type: string;
  format: string | null;
  options: string[] | null;
  productId: number;
  inheritanceStatus: string;
  defaultLabel: string | null;
}

export interface GqlLimit {
  id: number;
  name: string;
  label: string | null;
  kind: string;
  default: string | null;
}

export interface GqlRiskItem {
  id: number;
  name: string;
  label: string | null;
  presence: string;
  type: string | null;
  fullyEarned: boolean;
  order: number;
  productId: number;
  inheritanceStatus: string;
  limits: GqlLimit[];
}

export interface GqlRateTable {
  id: number;
  name: string;
  label: string | null;
  default: string | null;
  validityState: string;
  rowsCount: number;
  productId: number;
  inheritanceStatus: string;
}

export interface GqlCalculation {
  id: number;
  name: string;
  calculation: string;
  order: number;
  riskItemId: number | null;
  productId: number;
  inheritanceStatus: string;
}

export interface LinesGraphqlSource {
  lines(filter: { name?: string }): Promise<GqlLine[]>;
  line(by: { id?: number; name?: string }): Promise<GqlLine | null>;
  /** The line's most recent root product (the one new quotes start from). */
  latestProduct(lineId: number): Promise<GqlProduct | null>;
  products(filter: { lineId?: number; parentProductId?: number | null }): Promise<GqlProduct[]>;
  product(by: { id?: number; name?: string }): Promise<GqlProduct | null>;
  versions(productId: number): Promise<GqlVersion[]>;
  /** The newest published version, else the newest version. */
  latestVersion(productId: number): Promise<GqlVersion | null>;
  /** Risk types of a product version (the latest version when versionId is null). */
  riskTypes(productId: number, versionId: number | null): Promise<GqlRiskType[]>;
  riskFields(riskType: GqlRiskType): Promise<GqlRiskField[]>;
  riskItems(riskType: GqlRiskType): Promise<GqlRiskItem[]>;
  rateTables(riskType: GqlRiskType): Promise<GqlRateTable[]>;
  calculations(riskType: GqlRiskType): Promise<GqlCalculation[]>;
}
