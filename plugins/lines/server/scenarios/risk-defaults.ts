import { itemsOf, limitsOf, type ResolvedDefinition } from '../catalog/resolve.js';
import type { RiskItemState } from './risk-state.js';

/** An item as it starts on a risk: with its default limits and deductibles. */
export function newItem(definition: ResolvedDefinition, riskType: string, itemName: string): RiskItemState {
  const item: RiskItemState = { name: itemName };
  for (const { row } of limitsOf(definition, riskType, itemName)) {
    if (row.defaultValue === null) continue;
    const single = row.kind === 'limit' ? 'limit' : 'deductible';
    const named = row.kind === 'limit' ? 'limits' : 'deductibles';
    if (row.name === '') item[single] = row.defaultValue;
    else item[named] = { ...(item[named] ?? {}), [row.name]: row.defaultValue };
  }
  return item;
}

/** The items a new risk starts with: those that are required or on by default. */
export function defaultItems(definition: ResolvedDefinition, riskType: string): RiskItemState[] {
  return itemsOf(definition, riskType)
    .filter(({ row }) => row.presence !== 'optional')
    .map(({ row }) => newItem(definition, riskType, row.name));
}
