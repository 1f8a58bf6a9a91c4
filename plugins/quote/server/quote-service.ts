import { quoteEventStatement, quoteStatusChanged } from './events.js';
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  compileProduct,
  rate,
  RatingError,
  type CompiledProduct,
  type ProductDefinition,
  type RatingRequest,
  type RatingResult,
  type RiskInput,
} from '@atrium/rating';
import type { RiskModel, UnderwritingIssue } from '@atrium/rating/rules';
import { LINES_ONTOLOGY, type ProductVersionInForce } from '@atrium/plugin-lines/ontology-service';
import { RULES_RUNTIME, type RulesRunResult } from '@atrium/plugin-rules/runtime';
import {
  ApiError,
  badRequest,
  conflict,
  type Principal,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { buildFlow } from './flow.js';
import { ratingChanged, ratingDifference } from './rating-difference.js';
import { alert, item, quote, risk, underwritingIssue } from './tables.js';

export type QuoteRow = typeof quote.$inferSelect;
export type RiskRow = typeof risk.$inferSelect;
export type ItemRow = typeof item.$inferSelect;
export type IssueRow = typeof underwritingIssue.$inferSelect;

export const STATUSES = ['In Progress', 'In Review', 'Approved', 'Declined', 'Abandoned'] as const;
export type QuoteStatus = (typeof STATUSES)[number];

/** A risk with its items and children, as the API answers it (spec: risk quote). */
export interface RiskNode {
  id: number;
  risk_state: {
    type: { name: string };
    field_answers: Record<string, unknown>;
    items: {
      id: number;
      name: string;
      limit: string | null;
      deductible: string | null;
      limits: Record<string, string>;
    }[];
  };
  risk_quotes: RiskNode[];
  meta: { locked: boolean };
}

/** Compiled product versions by version id, per database (published versions never change). */
const compiled = new WeakMap<object, Map<number, CompiledProduct>>();
const COMPILED_LIMIT = 100;

export function compiledFor(db: object, version: ProductVersionInForce): CompiledProduct {
  let cache = compiled.get(db);
  if (!cache) compiled.set(db, (cache = new Map()));
  const hit = cache.get(version.versionId);
  if (hit) return hit;
  const product = compileProduct(version.definition);
  if (cache.size >= COMPILED_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(version.versionId, product);
  return product;
}

/** Versions in force, cached briefly per (db, product, day): the definition is a dozen queries. */
const versions = new WeakMap<object, Map<string, { at: number; value: ProductVersionInForce | null }>>();
const VERSION_TTL_MS = 5_000;

export async function versionInForce(
  context: ServerPluginContext,
  tx: Queryable,
  productName: string,
  asOf: string,
): Promise<ProductVersionInForce | null> {
  let cache = versions.get(context.db);
  if (!cache) versions.set(context.db, (cache = new Map()));
  const key = `${productName}@${asOf}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < VERSION_TTL_MS) return hit.value;
  const value = await context.service(LINES_ONTOLOGY).versionInForce(tx, productName, asOf);
  if (cache.size > 500) cache.clear();
  cache.set(key, { at: Date.now(), value });
  return value;
}

/**
 * The lines products, cached briefly per db (a product's label for a new quote). Read in the
 * caller's transaction: a read on the pool while holding a transaction's connection would starve
 * the pool under load (every connection in a transaction, each waiting for one more).
 */
const productLists = new WeakMap<object, { at: number; value: { id: number; name: string; label: string }[] }>();

export async function productsOf(context: ServerPluginContext, tx: Queryable) {
  const hit = productLists.get(context.db);
  if (hit && Date.now() - hit.at < VERSION_TTL_MS) return hit.value;
  const value = await context.service(LINES_ONTOLOGY).products(tx);
  productLists.set(context.db, { at: Date.now(), value });
  return value;
}

/** The version in force on the date, only when it has started (versionInForce falls back to the earliest). */
export async function startedVersion(context: ServerPluginContext, tx: Queryable, productName: string, on: string) {
  const version = await versionInForce(context, tx, productName, on);
  return version && version.effectiveDate <= on ? version : null;
}

export function flowOf(productName: string, version: { versionId: number; definition: ProductDefinition }) {
  return buildFlow(productName, version.versionId, version.definition);
}

/** Adds whole months to a YYYY-MM-DD date (day clamped to the month's end). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

export async function nextQuoteNumber(tx: Queryable): Promise<string> {
  const result = await tx.execute(sql`select nextval('quote.quote_number') as n`);
  const [row] = result.rows as { n: string | number }[];
  return `Q-${String(row!.n)}`;
}

export type AlertRow = typeof alert.$inferSelect;

/** What a quote's answers carry besides its own row: its risk tree, underwriting issues and alerts. */
export interface QuoteState {
  tree: RiskNode | null;
  issues: IssueRow[];
  alerts: AlertRow[];
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
const when = (value: string | null) => (value === null ? null : new Date(value));

/**
 * The quote's risk tree, underwriting issues and alerts in one statement (each as a JSON array;
 * numerics as text, as the row reads give them). Read after the quote's row lock, so that it sees
 * what the transactions before this one committed.
 */
export async function loadState(tx: Queryable, quoteId: number): Promise<QuoteState> {
  const result = await tx.execute(sql`select
    (select coalesce(json_agg(json_build_object('id', r.id, 'parent_id', r.parent_id, 'risk_type', r.risk_type,
        'answers', r.answers, 'locked', r.locked) order by r.id), '[]'::json)
      from quote.risk r where r.quote_id = ${quoteId}) as risks,
    (select coalesce(json_agg(json_build_object('id', i.id, 'risk_id', i.risk_id, 'name', i.name,
        'limit', i."limit"::text, 'deductible', i.deductible::text, 'limits', i.limits) order by i.id), '[]'::json)
      from quote.item i join quote.risk r on r.id = i.risk_id where r.quote_id = ${quoteId}) as items,
    (select coalesce(json_agg(json_build_object('id', u.id, 'code', u.code, 'severity', u.severity,
        'blocking', u.blocking, 'message', u.message, 'rule', u.rule, 'risk', u.risk, 'status', u.status,
        'authority', u.authority, 'resolved_by', u.resolved_by, 'resolved_at', u.resolved_at, 'reason', u.reason,
        'created_at', u.created_at) order by u.id), '[]'::json)
      from quote.underwriting_issue u where u.quote_id = ${quoteId}) as issues,
    (select coalesce(json_agg(json_build_object('id', a.id, 'kind', a.kind, 'message', a.message,
        'created_at', a.created_at) order by a.id), '[]'::json)
      from quote.alert a where a.quote_id = ${quoteId}) as alerts`);
  const [row] = result.rows as { risks: unknown; items: unknown; issues: unknown; alerts: unknown }[];
  type R = {
    id: number;
    parent_id: number | null;
    risk_type: string;
    answers: Record<string, unknown>;
    locked: boolean;
  };
  type I = {
    id: number;
    risk_id: number;
    name: string;
    limit: string | null;
    deductible: string | null;
    limits: Record<string, string>;
  };
  type U = {
    id: number;
    code: string;
    severity: string;
    blocking: string;
    message: string;
    rule: string;
    risk: string;
    status: string;
    authority: string;
    resolved_by: string | null;
    resolved_at: string | null;
    reason: string | null;
    created_at: string;
  };
  type A = { id: number; kind: string; message: string; created_at: string };
  const risks = json<R[]>(row!.risks).map(
    (r) =>
      ({
        id: r.id,
        quoteId,
        parentId: r.parent_id,
        riskType: r.risk_type,
        answers: r.answers,
        locked: r.locked,
      }) as RiskRow,
  );
  const items = json<I[]>(row!.items).map((i): ItemRow => ({
    id: i.id,
    riskId: i.risk_id,
    name: i.name,
    limit: i.limit,
    deductible: i.deductible,
    limits: i.limits,
  }));
  return {
    tree: risks.length > 0 ? treeOf(risks, items) : null,
    issues: json<U[]>(row!.issues).map((u): IssueRow => ({
      id: u.id,
      quoteId,
      code: u.code,
      severity: u.severity,
      blocking: u.blocking,
      message: u.message,
      rule: u.rule,
      risk: u.risk,
      status: u.status,
      authority: u.authority,
      resolvedBy: u.resolved_by,
      resolvedAt: when(u.resolved_at),
      reason: u.reason,
      createdAt: new Date(u.created_at),
    })),
    alerts: json<A[]>(row!.alerts).map((a) => ({
      id: a.id,
      quoteId,
      kind: a.kind,
      message: a.message,
      createdAt: new Date(a.created_at),
    })),
  };
}

/** The quote's risks and items as a tree (root first). */
export async function loadTree(tx: Queryable, quoteId: number): Promise<RiskNode | null> {
  const risks = await tx.select().from(risk).where(eq(risk.quoteId, quoteId)).orderBy(asc(risk.id));
  if (risks.length === 0) return null;
  const items = await tx
    .select()
    .from(item)
    .where(
      inArray(
        item.riskId,
        risks.map((r) => r.id),
      ),
    )
    .orderBy(asc(item.id));
  return treeOf(risks, items);
}

export function treeOf(risks: RiskRow[], items: ItemRow[]): RiskNode | null {
  const nodes = new Map<number, RiskNode>();
  for (const r of risks) {
    nodes.set(r.id, {
      id: r.id,
      risk_state: { type: { name: r.riskType }, field_answers: r.answers, items: [] },
      risk_quotes: [],
      meta: { locked: r.locked },
    });
  }
  for (const i of items) {
    nodes.get(i.riskId)?.risk_state.items.push({
      id: i.id,
      name: i.name,
      limit: i.limit,
      deductible: i.deductible,
      limits: i.limits,
    });
  }
  let root: RiskNode | null = null;
  for (const r of risks) {
    const node = nodes.get(r.id)!;
    if (r.parentId === null) root ??= node;
    else nodes.get(r.parentId)?.risk_quotes.push(node);
  }
  return root;
}

export function findNode(root: RiskNode | null, id: number): RiskNode | null {
  if (!root) return null;
  if (root.id === id) return root;
  for (const child of root.risk_quotes) {
    const found = findNode(child, id);
    if (found) return found;
  }
  return null;
}

const scalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;

/** The risk tree as the rating engine reads it. */
export function toRiskInput(node: RiskNode): RiskInput {
  const answers: Record<string, string | number | boolean | undefined> = {};
  for (const [name, value] of Object.entries(node.risk_state.field_answers)) answers[name] = scalar(value);
  return {
    id: String(node.id),
    type: node.risk_state.type.name,
    answers,
    items: node.risk_state.items.map((i) => ({
      name: i.name,
      ...(i.limit !== null ? { limit: i.limit } : {}),
      ...(i.deductible !== null ? { deductible: i.deductible } : {}),
      ...(Object.keys(i.limits).length > 0 ? { limits: i.limits } : {}),
    })),
    children: node.risk_quotes.map(toRiskInput),
  };
}

/** The risk tree as the rules read it (`type#id.field` names the elements of child risks). */
export function toRiskModel(node: RiskNode): RiskModel {
  return {
    id: String(node.id),
    type: node.risk_state.type.name,
    field_answers: node.risk_state.field_answers,
    items: node.risk_state.items.map((i) => ({
      name: i.name,
      ...(i.limit !== null ? { limit: i.limit } : {}),
      ...(i.deductible !== null ? { deductible: i.deductible } : {}),
    })) as RiskModel['items'],
    children: node.risk_quotes.map(toRiskModel),
  };
}

export const ruleUser = (principal: Principal | undefined) => ({
  username: principal?.username,
  roles: principal?.effectiveRole ? [principal.effectiveRole] : (principal?.roles ?? []),
});

/** Runs the deployed rules of the product on the tree (no rules deployed: nothing). */
export async function runRules(
  context: ServerPluginContext,
  tx: Queryable,
  row: QuoteRow,
  tree: RiskNode | null,
  principal: Principal | undefined,
): Promise<RulesRunResult> {
  if (!tree) return { actions: [], issues: [], errors: [], project: null, effectiveDate: null };
  return context.service(RULES_RUNTIME).run(tx, {
    product: row.productName,
    asOf: row.effectiveDate,
    user: ruleUser(principal),
    risk: toRiskModel(tree),
  });
}

/**
 * Keeps the quote's underwriting issues in step with what the rules raise now: a new issue is
 * opened; an open one the rules no longer raise is removed; approved and rejected ones stay (an
 * underwriter's decision is not undone by a re-evaluation).
 */
export async function syncIssues(
  tx: Queryable,
  quoteId: number,
  raised: UnderwritingIssue[],
  read?: IssueRow[],
): Promise<IssueRow[]> {
  // `read`: the issues read in this transaction after the quote's lock (loadState), not read again.
  const existing = read
    ? [...read]
    : await tx.select().from(underwritingIssue).where(eq(underwritingIssue.quoteId, quoteId));
  const key = (i: { code: string; risk: string }) => `${i.code}\u0000${i.risk}`;
  const now = new Map(raised.map((i) => [key(i), i]));
  const stale = existing.filter((e) => e.status === 'open' && !now.has(key(e))).map((e) => e.id);
  if (stale.length > 0) await tx.delete(underwritingIssue).where(inArray(underwritingIssue.id, stale));
  const known = new Set(existing.map(key));
  const fresh = [...now.values()].filter((i) => !known.has(key(i)));
  if (fresh.length > 0) {
    await tx.insert(underwritingIssue).values(
      fresh.map((i) => ({
        quoteId,
        code: i.code,
        severity: i.severity,
        blocking: i.blocking,
        message: i.message,
        rule: i.rule,
        risk: i.risk,
        authority: 'Underwriter',
      })),
    );
  }
  // Nothing changed (the usual save): the rows read are the answer, no second read.
  if (stale.length === 0 && fresh.length === 0) return existing.sort((a, b) => a.id - b.id);
  return tx
    .select()
    .from(underwritingIssue)
    .where(eq(underwritingIssue.quoteId, quoteId))
    .orderBy(asc(underwritingIssue.id));
}

const BLOCKING_ORDER = { none: 0, rate: 1, submit: 2, bind: 3 } as const;

/** Open issues that stop the step `at`: those blocking at that point or earlier. */
export function blockingIssues(issues: IssueRow[], at: 'rate' | 'submit' | 'bind'): IssueRow[] {
  return issues.filter(
    (i) =>
      i.status === 'open' &&
      i.blocking !== 'none' &&
      (BLOCKING_ORDER[i.blocking as keyof typeof BLOCKING_ORDER] ?? 0) <= BLOCKING_ORDER[at],
  );
}

/** 409 naming what blocks and who may clear it. */
export function blockedError(step: string, issues: IssueRow[]): ApiError {
  const list = issues.map((i) => `${i.code}: ${i.message} (cleared by ${i.authority})`).join('; ');
  return conflict(`The quote cannot be ${step} while underwriting issues are open: ${list}`, {
    code: 'underwriting_issues_open',
    meta: {
      issues: issues.map((i) => ({ id: i.id, code: i.code, message: i.message, authority: i.authority })),
    },
  });
}

/**
 * The rating step, replaceable by a benchmark (P6's baseline rates every quote at a constant
 * premium to show what rating itself costs); nothing else changes it.
 */
export const ratingEngine: { rate: (product: CompiledProduct, request: RatingRequest) => RatingResult } = {
  rate: (product, request) => rate(product, request),
};

/**
 * Rates the quote on the version in force at its effective date; stores premium and worksheet. A
 * rating that differs from the one kept makes that one the previous rating (the re-rate's
 * difference compares the two); rating again without a change keeps the previous one.
 */
export async function rateQuote(context: ServerPluginContext, tx: Queryable, row: QuoteRow, tree: RiskNode | null) {
  if (!tree) throw badRequest('Add the quote’s first risk before rating.', { code: 'no_risk' });
  const version = await versionInForce(context, tx, row.productName, row.effectiveDate);
  if (!version) {
    throw badRequest(
      `Cannot find effective date: product ${row.productLabel} has no version in force on ${row.effectiveDate}.`,
    );
  }
  let result: RatingResult;
  try {
    result = ratingEngine.rate(compiledFor(context.db, version), {
      risk: toRiskInput(tree),
      transactionType: row.transactionType as 'new_business',
      termStart: row.effectiveDate,
      termEnd: row.expirationDate,
      effectiveDate: row.effectiveDate,
    });
  } catch (error) {
    if (error instanceof RatingError) {
      throw badRequest(error.message, { code: error.code, meta: { rating_error: { code: error.code } } });
    }
    throw error;
  }
  const ratedAt = new Date();
  const kept = { premium: row.premiumTerm, worksheet: row.worksheet, ratedAt: row.lastRatedAt };
  const fresh = { premium: result.termPremium, worksheet: result.worksheet, ratedAt };
  const shift = row.lastRatedAt !== null && ratingChanged(kept, fresh);
  const previous = shift
    ? kept
    : { premium: row.previousPremiumTerm, worksheet: row.previousWorksheet, ratedAt: row.previousRatedAt };
  const [updated] = await tx
    .update(quote)
    .set({
      premiumTerm: result.termPremium,
      premiumProRata: result.premium,
      worksheet: result.worksheet,
      lastRatedAt: ratedAt,
      ratingStale: false,
      productVersionId: version.versionId,
      productVersionLabel: version.versionLabel,
      updatedAt: ratedAt,
      ...(shift
        ? { previousPremiumTerm: kept.premium, previousWorksheet: kept.worksheet, previousRatedAt: kept.ratedAt }
        : {}),
    })
    .where(eq(quote.id, row.id))
    .returning();
  const difference = ratingDifference(previous, fresh, version.definition);
  // The updated row itself (RETURNING): the caller answers it without reading it again.
  return { result, version, ratedAt, difference, row: updated! };
}

/** The difference between the quote's last two ratings (an empty one before a second rating). */
export async function storedDifference(context: ServerPluginContext, tx: Queryable, row: QuoteRow) {
  const version =
    row.lastRatedAt !== null ? await versionInForce(context, tx, row.productName, row.effectiveDate) : null;
  return ratingDifference(
    { premium: row.previousPremiumTerm, worksheet: row.previousWorksheet, ratedAt: row.previousRatedAt },
    { premium: row.premiumTerm, worksheet: row.worksheet, ratedAt: row.lastRatedAt },
    version?.definition ?? null,
  );
}

const STATUS_ALERT_KINDS = ['review', 'approved', 'declined'];

/**
 * Records a status change (and the status alert). Given the quote's alerts as the transaction
 * knows them, answers them as they are after the change (no change: undefined).
 */
export async function changeStatus(
  tx: Queryable,
  row: QuoteRow,
  to: QuoteStatus,
  trigger: string,
  by: string,
  reason: string | null = null,
  alerts?: AlertRow[],
): Promise<AlertRow[] | undefined> {
  if (row.status === to) return undefined;
  const from = row.status;
  const now = new Date();
  const message = STATUS_ALERTS[to];
  // The event reports the quote as it is after the change.
  const event = quoteEventStatement(quoteStatusChanged, { ...row, status: to }, { from, trigger, reason, by });
  // One statement: the status, its history line, its event, the old status alerts out and the new one in.
  const result = await tx.execute(sql`with changed as (
      update quote.quote set status = ${to}, updated_at = ${now.toISOString()}::timestamptz where id = ${row.id}
    ), history as (
      insert into quote.status_history (quote_id, from_status, to_status, trigger, reason, changed_by)
      values (${row.id}, ${from}, ${to}, ${trigger}, ${reason}, ${by})
    ), outbox as (${event}), cleared as (
      delete from quote.alert where quote_id = ${row.id} and kind in (${sql.join(
        STATUS_ALERT_KINDS.map((k) => sql`${k}`),
        sql`, `,
      )})
    ) ${
      message
        ? sql`insert into quote.alert (quote_id, kind, message) values (${row.id}, ${message.kind}, ${message.text})
            returning id, kind, message, created_at`
        : sql`select null::int as id, null as kind, null as message, null::timestamptz as created_at where false`
    }`);
  const added = (result.rows as { id: number; kind: string; message: string; created_at: string | Date }[]).map(
    (a): AlertRow => ({
      id: a.id,
      quoteId: row.id,
      kind: a.kind,
      message: a.message,
      createdAt: new Date(a.created_at),
    }),
  );
  row.status = to;
  row.updatedAt = now;
  return alerts ? [...alerts.filter((a) => !STATUS_ALERT_KINDS.includes(a.kind)), ...added] : undefined;
}

export const STATUS_ALERTS: Partial<Record<QuoteStatus, { kind: string; text: string }>> = {
  'In Review': { kind: 'review', text: 'This quote is pending underwriter review.' },
  Approved: { kind: 'approved', text: 'Congratulations! This quote is approved and ready to bind.' },
  Declined: { kind: 'declined', text: 'This quote was declined by underwriting.' },
};

/**
 * An edit: a locked or bound quote refuses it; after Approved (or In Review) the quote returns to
 * In Progress; the rating is marked stale.
 */
export async function beforeEdit(tx: Queryable, row: QuoteRow, by: string, change?: SQL) {
  if (row.isBound || row.locked)
    throw conflict(`Quote ${row.number} is locked and cannot be changed.`, { code: 'locked' });
  if (row.status === 'Declined' || row.status === 'Abandoned') {
    throw conflict(`Quote ${row.number} is ${row.status} and cannot be changed.`, { code: 'closed' });
  }
  if (row.status === 'Approved' || row.status === 'In Review') await changeStatus(tx, row, 'In Progress', 'edit', by);
  const stale = row.lastRatedAt !== null;
  const now = new Date();
  if (change) {
    // The edit itself (`change`, a data-modifying statement) and the quote's mark in one statement.
    await tx.execute(
      sql`with change as (${change}) update quote.quote set rating_stale = ${stale}, updated_at = ${now.toISOString()}::timestamptz where id = ${row.id}`,
    );
  } else {
    await tx.update(quote).set({ ratingStale: stale, updatedAt: now }).where(eq(quote.id, row.id));
  }
  row.ratingStale = stale;
  row.updatedAt = now;
}
