import type { CompiledProduct } from './compiled-product.js';
import { Decimal } from './decimal.js';
import { diffWorksheets, type WorksheetDifference } from './diff.js';
import { RatingError } from './errors.js';
import { rate, type RatingRequest, type RatingResult } from './rate.js';
import type { Worksheet } from './worksheet.js';

/** A scenario with its known answer: the premium and, when recorded, the whole worksheet. */
export interface KnownAnswerCase {
  name: string;
  request: RatingRequest;
  /** The expected premium of the transaction (proRataPremium). */
  expectedPremium: string;
  /** The worksheet recorded when the case was accepted; gives the factor-by-factor differences. */
  expectedWorksheet?: Worksheet;
}

export interface KnownAnswerResult {
  name: string;
  passed: boolean;
  expectedPremium: string;
  /** Absent when rating failed. */
  actualPremium?: string;
  differences: WorksheetDifference[];
  /** The rating error, when the scenario could not be rated. */
  error?: { code: string; message: string };
  result?: RatingResult;
}

/**
 * Rates every known-answer case against a product version. A case passes when its premium equals
 * the expected premium (by value) and its worksheet, when one was recorded, has no differences.
 * Publishing a version refuses when any case fails.
 */
export function runKnownAnswerCases(product: CompiledProduct, cases: KnownAnswerCase[]): KnownAnswerResult[] {
  return cases.map((c) => {
    let result: RatingResult;
    try {
      result = rate(product, c.request);
    } catch (error) {
      const code = error instanceof RatingError ? error.code : 'error';
      return {
        name: c.name,
        passed: false,
        expectedPremium: c.expectedPremium,
        differences: [],
        error: { code, message: (error as Error).message },
      };
    }
    const differences = c.expectedWorksheet ? diffWorksheets(c.expectedWorksheet, result.worksheet) : [];
    const premiumMatches = new Decimal(c.expectedPremium).equals(new Decimal(result.premium));
    if (!premiumMatches && !differences.some((d) => d.kind === 'premium' && d.name === 'proRataPremium')) {
      differences.unshift({
        kind: 'premium',
        name: 'proRataPremium',
        expected: c.expectedPremium,
        actual: result.premium,
        message: `proRataPremium: expected ${c.expectedPremium}, got ${result.premium}`,
      });
    }
    return {
      name: c.name,
      passed: premiumMatches && differences.length === 0,
      expectedPremium: c.expectedPremium,
      actualPremium: result.premium,
      differences,
      result,
    };
  });
}
