import type { CompiledFormulaStep } from './compiled-product.js';
import type { DefinitionProblem } from './errors.js';

/**
 * Orders steps by declared order, moving a step after the steps it reads. A cycle is reported with
 * the names in it (first repeated at the end) and its steps are left out.
 */
export function orderSteps(
  riskType: string,
  steps: { step: CompiledFormulaStep; order: number }[],
  what: string,
  problems: DefinitionProblem[],
): CompiledFormulaStep[] {
  const sorted = steps
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map((s) => s.step);
  const byName = new Map(sorted.map((s) => [s.name, s]));
  const state = new Map<string, 'visiting' | 'done'>();
  const out: CompiledFormulaStep[] = [];
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (step: CompiledFormulaStep): boolean => {
    const s = state.get(step.name);
    if (s === 'done') return true;
    if (s === 'visiting') {
      const cycle = [...stack.slice(stack.indexOf(step.name)), step.name];
      const key = [...new Set(cycle)].sort().join(',');
      if (!reported.has(key)) {
        reported.add(key);
        problems.push({
          code: 'cycle',
          riskType,
          calculation: step.name,
          cycle,
          message: `Cycle between ${what}s of '${riskType}': ${cycle.join(' → ')}`,
        });
      }
      return false;
    }
    state.set(step.name, 'visiting');
    stack.push(step.name);
    let ok = true;
    for (const dep of step.dependsOn) {
      const target = byName.get(dep);
      if (target && !visit(target)) ok = false;
    }
    stack.pop();
    state.set(step.name, 'done');
    if (ok) out.push(step);
    return ok;
  };
  for (const step of sorted) visit(step);
  return out;
}
