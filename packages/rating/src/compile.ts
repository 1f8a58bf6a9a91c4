import { Binder } from './bind.js';
import type { CompiledProduct, CompiledRiskType } from './compiled-product.js';
import { DEFAULT_PREMIUM_ROUNDING, type RoundSpec, isRoundingMode } from './decimal.js';
import { ProductDefinitionError, type DefinitionProblem } from './errors.js';
import { orderSteps } from './order-steps.js';
import {
  MAX_RISK_DEPTH,
  type CalculationDefinition,
  type ProductDefinition,
  type RiskTypeDefinition,
} from './product.js';
import { CompiledRateTable } from './rate-tables.js';

export { BUILTINS } from './builtins.js';
export type { CompiledFormulaStep, CompiledProduct, CompiledRiskType } from './compiled-product.js';

/** Compiles a product or throws ProductDefinitionError listing every problem. */
export function compileProduct(definition: ProductDefinition): CompiledProduct {
  const { product, problems } = checkProduct(definition);
  if (problems.length > 0 || !product) throw new ProductDefinitionError(problems);
  return product;
}

/** Compiles a product and returns the problems instead of throwing (for editors and APIs). */
export function checkProduct(definition: ProductDefinition): {
  product: CompiledProduct | null;
  problems: DefinitionProblem[];
} {
  const problems: DefinitionProblem[] = [];
  const tables = new Map<string, CompiledRateTable>();
  for (const table of definition.rateTables ?? []) {
    if (tables.has(table.name)) {
      problems.push({
        code: 'invalid_definition',
        table: table.name,
        message: `Rate table '${table.name}' is defined twice`,
      });
    }
    tables.set(table.name, new CompiledRateTable(table, problems));
  }
  const defs = new Map<string, RiskTypeDefinition>();
  for (const rt of definition.riskTypes) {
    if (defs.has(rt.name)) {
      problems.push({
        code: 'invalid_definition',
        riskType: rt.name,
        message: `Risk type '${rt.name}' is defined twice`,
      });
    }
    defs.set(rt.name, rt);
  }
  if (!defs.has(definition.rootRiskType)) {
    problems.push({
      code: 'invalid_definition',
      message: `Root risk type '${definition.rootRiskType}' is not defined`,
    });
  }
  const riskTypes = new Map<string, CompiledRiskType>();
  for (const rt of definition.riskTypes) {
    const chain: string[] = [];
    let parent = rt.parent;
    const ancestorFields = new Set<string>();
    while (parent !== undefined && chain.length <= MAX_RISK_DEPTH) {
      chain.push(parent);
      const p = defs.get(parent);
      if (!p) {
        problems.push({
          code: 'invalid_definition',
          riskType: rt.name,
          message: `Risk type '${rt.name}' names unknown parent '${parent}'`,
        });
        break;
      }
      for (const f of p.fields ?? []) ancestorFields.add(f.name);
      parent = p.parent;
    }
    if (chain.length >= MAX_RISK_DEPTH) {
      problems.push({
        code: 'invalid_definition',
        riskType: rt.name,
        message: `Risk type '${rt.name}' is nested deeper than ${MAX_RISK_DEPTH} levels`,
      });
    }
    riskTypes.set(rt.name, {
      name: rt.name,
      definition: rt,
      parent: rt.parent ?? null,
      depth: chain.length + 1,
      fields: new Map((rt.fields ?? []).map((f) => [f.name, f])),
      items: new Map((rt.items ?? []).map((i) => [i.name, i])),
      computedFields: [],
      calculations: [],
      premium: rt.premium ?? 'premium',
      ancestorFields,
      childTypes: definition.riskTypes.filter((c) => c.parent === rt.name).map((c) => c.name),
    });
  }
  for (const rt of riskTypes.values()) {
    const binder = new Binder(rt, riskTypes, tables, problems);
    const computed = (rt.definition.fields ?? []).filter((f) => f.type === 'computed' || f.formula !== undefined);
    const fieldSteps = computed.flatMap((f) => {
      if (!f.formula) {
        problems.push({
          code: 'invalid_definition',
          riskType: rt.name,
          field: f.name,
          message: `Computed field '${f.name}' of '${rt.name}' has no formula`,
        });
        return [];
      }
      const step = binder.step(f.name, f.formula, 'field', f.round);
      return step ? [{ step, order: 0 }] : [];
    });
    rt.computedFields = orderSteps(rt.name, fieldSteps, 'computed field', problems);
    const calcSteps = rt.definition.calculations.flatMap((c: CalculationDefinition, index) => {
      checkRound(rt.name, c.name, c.round, problems);
      if (c.item !== undefined && !rt.items.has(c.item)) {
        problems.push({
          code: 'unknown_reference',
          riskType: rt.name,
          calculation: c.name,
          message: `Calculation '${c.name}' of '${rt.name}' belongs to unknown item '${c.item}'`,
        });
      }
      const step = binder.step(c.name, c.formula, 'calculation', c.round, c.item);
      return step ? [{ step, order: c.order ?? index }] : [];
    });
    rt.calculations = orderSteps(rt.name, calcSteps, 'calculation', problems);
    for (const item of rt.items.values()) {
      if (item.premium !== undefined && !rt.definition.calculations.some((c) => c.name === item.premium)) {
        problems.push({
          code: 'unknown_reference',
          riskType: rt.name,
          message: `Item '${item.name}' of '${rt.name}' names unknown premium calculation '${item.premium}'`,
        });
      }
    }
  }
  const root = riskTypes.get(definition.rootRiskType);
  if (root && !root.definition.calculations.some((c) => c.name === root.premium)) {
    problems.push({
      code: 'unknown_reference',
      riskType: root.name,
      message: `Root risk type '${root.name}' has no premium calculation '${root.premium}'`,
    });
  }
  checkRound(definition.rootRiskType, 'premium rounding', definition.premiumRounding, problems);
  const product: CompiledProduct = {
    definition,
    name: definition.name,
    version: definition.version,
    rootRiskType: definition.rootRiskType,
    riskTypes,
    tables,
    premiumRounding: {
      places: definition.premiumRounding?.places ?? DEFAULT_PREMIUM_ROUNDING.places,
      mode: definition.premiumRounding?.mode ?? DEFAULT_PREMIUM_ROUNDING.mode,
    },
  };
  return { product: problems.length === 0 ? product : null, problems };
}

function checkRound(riskType: string, name: string, round: RoundSpec | undefined, problems: DefinitionProblem[]) {
  if (!round) return;
  if (!Number.isInteger(round.places) || round.places < 0 || (round.mode && !isRoundingMode(round.mode))) {
    problems.push({
      code: 'invalid_definition',
      riskType,
      calculation: name,
      message: `Rounding of '${name}' needs whole places ≥ 0 and a mode of half-up, half-even, down or up`,
    });
  }
}
