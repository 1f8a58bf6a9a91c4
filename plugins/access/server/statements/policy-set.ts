import type { Evaluation, EvaluationRequest, Principal, RecordFilter, RecordFilterRequest } from '@atrium/sdk/server';
import type { Statement } from '../../shared/statement-schema.js';
import {
  compileAll,
  compileCondition,
  FALSE,
  TRUE,
  type CompiledCondition,
  type ConditionInput,
} from './condition-compiler.js';
import { recordFilterOf } from './record-filter.js';
import { compilePatterns, isWildcard, type PatternMatcher } from './wildcard-pattern.js';

/**
 * The statements of every policy a role has, compiled once per change and asked many times.
 *
 * Decision: a deny that applies wins; otherwise an allow that applies allows; otherwise the request
 * is denied (nothing allows it). Whether a statement applies to a request with conditions:
 * - the request carries a record (a handler asking about the record it holds): missing or
 *   incomparable values never widen access — an allow applies only when its conditions are TRUE, a
 *   deny applies unless they are FALSE;
 * - the request carries no record (the route check before a handler runs, or the UI asking "may I
 *   do this at all?"): the question is whether the action is possible on some record — an allow
 *   applies unless its conditions are FALSE, a deny only when they are TRUE. The handler then asks
 *   again with the record.
 */
export interface SourceStatement {
  policyId: number;
  policyName: string;
  index: number;
  statement: Statement;
}

interface CompiledStatement {
  deny: boolean;
  source: SourceStatement;
  actions: PatternMatcher;
  resources: PatternMatcher;
  condition: CompiledCondition | null;
}

export const ALLOWED: Evaluation = Object.freeze({ allowed: true, reason: 'allowed-by-statement' });
export const DENIED_BY_STATEMENT: Evaluation = Object.freeze({ allowed: false, reason: 'denied-by-statement' });
export const NO_MATCHING_STATEMENT: Evaluation = Object.freeze({ allowed: false, reason: 'no-matching-statement' });

/** Resource/action pairs whose candidate statements are remembered; a policy set of a role sees few. */
const CANDIDATE_CACHE_LIMIT = 4096;

export class PolicySet {
  /** Denies first, so that the first allow that applies settles the decision. */
  private readonly statements: CompiledStatement[];
  /** Statements whose resources name exact resources, by resource; the rest are always scanned. */
  private readonly byResource = new Map<string, CompiledStatement[]>();
  private readonly wildcardResources: CompiledStatement[] = [];
  private readonly candidates = new Map<string, CompiledStatement[]>();

  constructor(sources: SourceStatement[]) {
    const compiled = sources.map((source): CompiledStatement => ({
      deny: source.statement.effect === 'deny',
      source,
      actions: compilePatterns(source.statement.actions),
      resources: compilePatterns(source.statement.resources),
      condition: source.statement.conditions?.length
        ? compileAll(source.statement.conditions.map(compileCondition))
        : null,
    }));
    this.statements = [...compiled.filter((s) => s.deny), ...compiled.filter((s) => !s.deny)];
    for (const statement of this.statements) {
      const resources = statement.source.statement.resources;
      if (resources.some(isWildcard)) {
        this.wildcardResources.push(statement);
        continue;
      }
      for (const resource of new Set(resources)) {
        const list = this.byResource.get(resource) ?? [];
        list.push(statement);
        this.byResource.set(resource, list);
      }
    }
  }

  get size(): number {
    return this.statements.length;
  }

  /** The statements that match a resource and action, denies first. */
  private candidatesFor(resource: string, action: string): CompiledStatement[] {
    const key = `${resource}\u0000${action}`;
    let found = this.candidates.get(key);
    if (found) return found;
    const exact = this.byResource.get(resource) ?? [];
    const pool =
      exact.length === 0
        ? this.wildcardResources
        : this.statements.filter((s) => exact.includes(s) || this.wildcardResources.includes(s));
    found = pool.filter((s) => s.resources(resource) && s.actions(action));
    if (this.candidates.size >= CANDIDATE_CACHE_LIMIT) this.candidates.clear();
    this.candidates.set(key, found);
    return found;
  }

  decide(principal: Principal, request: EvaluationRequest): Evaluation {
    const candidates = this.candidatesFor(request.resource, request.action);
    if (candidates.length === 0) return NO_MATCHING_STATEMENT;
    const hasRecord = request.record !== undefined;
    const input: ConditionInput = { record: request.record, context: request.context, principal };
    for (const statement of candidates) {
      if (statement.condition === null) return statement.deny ? DENIED_BY_STATEMENT : ALLOWED;
      const truth = statement.condition(input);
      if (statement.deny) {
        if (truth === TRUE || (hasRecord && truth !== FALSE)) return DENIED_BY_STATEMENT;
      } else if (truth === TRUE || (!hasRecord && truth !== FALSE)) {
        return ALLOWED;
      }
    }
    return NO_MATCHING_STATEMENT;
  }

  /**
   * Partial evaluation for lists: the residual condition over `record.*` that a record must meet so
   * that `decide()` with that record allows (see record-filter.ts). `true`: every record, `false`:
   * none. Computed from the principal and context alone, never per record.
   */
  recordFilter(principal: Principal, request: RecordFilterRequest): RecordFilter {
    const candidates = this.candidatesFor(request.resource, request.action);
    if (candidates.length === 0) return false;
    return recordFilterOf(
      candidates.map((s) => ({ deny: s.deny, conditions: s.source.statement.conditions })),
      principal,
      request.context,
    );
  }

  /** Which statement decided, for explaining a decision (tests, the policy editor). */
  explain(
    principal: Principal,
    request: EvaluationRequest,
  ): { evaluation: Evaluation; statement: SourceStatement | null } {
    const candidates = this.candidatesFor(request.resource, request.action);
    const hasRecord = request.record !== undefined;
    const input: ConditionInput = { record: request.record, context: request.context, principal };
    for (const statement of candidates) {
      const truth = statement.condition === null ? TRUE : statement.condition(input);
      const applies = statement.deny
        ? truth === TRUE || (hasRecord && truth !== FALSE)
        : truth === TRUE || (!hasRecord && truth !== FALSE);
      if (applies) return { evaluation: statement.deny ? DENIED_BY_STATEMENT : ALLOWED, statement: statement.source };
    }
    return { evaluation: NO_MATCHING_STATEMENT, statement: null };
  }
}
