import { quoteCreated, quoteEventStatement } from './events.js';
import { and, asc, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ElementState } from '@atrium/rating/rules';
import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import {
  ApiError,
  badRequest,
  conflict,
  notFound,
  z,
  type AtriumRouter,
  type Principal,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { flowPages, type FlowField, type FlowRiskType, type QuoteFlow } from '../shared/flow.js';
import { scheduleAbandonSweep } from './abandon.js';
import { can } from './permissions.js';
import { changedAnswers, pluginChangeAudit, pluginPatch } from './plugin-change-audit.js';
import { isProducer, producerIds, quoteScope } from './quote-access.js';
import { assertQuotingPermission, findQuoteWithGrants, quotingActions } from './quoting-permissions.js';
import {
  addMonths,
  beforeEdit,
  blockedError,
  blockingIssues,
  changeStatus,
  findNode,
  flowOf,
  loadState,
  loadTree,
  productsOf,
  rateQuote,
  runRules,
  startedVersion,
  storedDifference,
  syncIssues,
  treeOf,
  versionInForce,
  type IssueRow,
  type QuoteRow,
  type QuoteState,
  type QuoteStatus,
  type RiskNode,
  type ItemRow,
  type RiskRow,
} from './quote-service.js';
import {
  answerValue,
  createQuoteBody,
  day,
  idParam,
  listQuery,
  quoteNumberParams,
  riskStateInput,
  rulesAction,
  updateQuoteBody,
} from './schemas.js';
import { alert, item, quote, risk, underwritingIssue, type NamedInsured } from './tables.js';

const tags = ['quote'];
const security = [{ bearer: [] as string[] }];

/** `%`, `_` and `\` are literal in a search text. */
const likeText = (value: string) => `%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface TriggerDefinition {
  name: string;
  label: string;
  from: QuoteStatus[];
  to: QuoteStatus;
  /** The quote action the caller needs. */
  action: 'update' | 'underwrite';
  reasonRequired?: boolean;
}

/** The server-defined status triggers (docs/quote.md, "Statuses and triggers"). */
export const TRIGGERS: TriggerDefinition[] = [
  { name: 'approve', label: 'Approve', from: ['In Review'], to: 'Approved', action: 'underwrite' },
  {
    name: 'decline',
    label: 'Decline',
    from: ['In Review'],
    to: 'Declined',
    action: 'underwrite',
    reasonRequired: true,
  },
  {
    name: 'abandon',
    label: 'Abandon',
    from: ['In Progress', 'In Review', 'Approved'],
    to: 'Abandoned',
    action: 'update',
  },
  { name: 'reopen', label: 'Reopen', from: ['Abandoned'], to: 'In Progress', action: 'update' },
];

export function quoteRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const directory = () => context.service(CONTACT_DIRECTORY);

  const allowed = async (principal: Principal | undefined, action: string, record?: QuoteRow) => {
    const evaluator = context.services.evaluator;
    if (!principal || !evaluator) return false;
    const evaluation = await evaluator.evaluate(principal, {
      resource: 'quote:quote',
      action,
      ...(record ? { record: accessRecord(record) } : {}),
    });
    return evaluation.allowed;
  };

  /** The quote the caller may `action` (404 as for a missing one), locked for update when `lock`. */
  const findQuote = async (
    tx: Queryable,
    request: FastifyRequest,
    number: string,
    action = 'read',
    lock = false,
  ): Promise<QuoteRow> => {
    const scope = await quoteScope(context, request.principal, action);
    const query = tx
      .select()
      .from(quote)
      .where(and(eq(quote.number, number), scope))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw notFound(`Quote ${number} not found.`);
    return row;
  };

  /**
   * The risk and its quote (quote locked) when the caller may `action` the quote, in one statement.
   * The risk row is read with the quote's lock, not after it: its answers are taken from the state
   * read after the lock (loadState) where they matter.
   */
  const findRisk = async (tx: Queryable, request: FastifyRequest, id: number, action = 'read', lock = false) => {
    const scope = await quoteScope(context, request.principal, action);
    const query = tx
      .select({
        ...getTableColumns(quote),
        riskRow: sql<RiskJson>`(select row_to_json(r) from quote.risk r where r.id = ${id})`,
      })
      .from(quote)
      .where(and(sql`${quote.id} = (select r.quote_id from quote.risk r where r.id = ${id})`, scope))
      .limit(1);
    const [found] = lock ? await query.for('update') : await query;
    if (!found) throw notFound(`Risk ${id} not found.`);
    const { riskRow: r, ...row } = found;
    const riskRow: RiskRow = {
      id: r.id,
      quoteId: r.quote_id,
      parentId: r.parent_id,
      riskType: r.risk_type,
      answers: r.answers,
      locked: r.locked,
      generatedBy: r.generated_by,
      createdAt: new Date(r.created_at),
    };
    return { row: row as QuoteRow, riskRow };
  };

  const username = (request: FastifyRequest) => request.principal?.username ?? 'system';
  // A third-party plugin's risk changes are audited with the plugin and its patch (issue 22).
  const pluginAudit = pluginChangeAudit(context);

  const flowFor = async (tx: Queryable, row: QuoteRow): Promise<QuoteFlow> => {
    const version = await versionInForce(context, tx, row.productName, row.effectiveDate);
    if (!version) throw notFound('No ScreenFlowInfo available');
    return flowOf(row.productName, version);
  };

  /** The quote as the API answers it (spec: Quote). */
  /** `known`: what the transaction already read or wrote (tree, issues, alerts), not read again. */
  const present = async (tx: Queryable, row: QuoteRow, include: string[] = [], known: Partial<QuoteState> = {}) => {
    const state: QuoteState =
      known.tree !== undefined && known.issues && known.alerts
        ? (known as QuoteState)
        : { ...(await loadState(tx, row.id)), ...known };
    const { tree: root, issues, alerts } = state;
    const out: Record<string, unknown> = {
      ...summary(row),
      root_risk_quote_id: root?.id ?? null,
      risk_quote: root,
      worksheet: row.worksheet,
      underwriting_issues: issues.map(presentIssue),
      alerts: alerts.map((a) => ({ id: a.id, kind: a.kind, message: a.message })),
      billing: { schedule_id: row.billingScheduleId, payment_method_id: row.paymentMethodId },
    };
    if (include.length > 0) Object.assign(out, await included(tx, [row], include).then((m) => m.get(row.id)));
    return out;
  };

  /** agents, agency, named_insureds, owner for each quote (contacts from the directory). */
  const included = async (tx: Queryable, rows: QuoteRow[], include: string[]) => {
    const ids = new Set<string>();
    for (const row of rows) {
      if (include.includes('agents') && row.agentContactId) ids.add(row.agentContactId);
      if (include.includes('agency') && row.agencyContactId) ids.add(row.agencyContactId);
      if (include.includes('named_insureds')) for (const n of row.namedInsureds) if (n.contactId) ids.add(n.contactId);
    }
    const contacts = ids.size > 0 ? await directory().findContacts(tx, [...ids]) : [];
    const byId = new Map(contacts.map((c) => [c.id, { id: c.id, name: c.name, emails: c.emails, phones: c.phones }]));
    const out = new Map<number, Record<string, unknown>>();
    for (const row of rows) {
      const extra: Record<string, unknown> = {};
      if (include.includes('agents'))
        extra.agents = row.agentContactId ? [byId.get(row.agentContactId) ?? { id: row.agentContactId }] : [];
      if (include.includes('agency'))
        extra.agency = row.agencyContactId ? (byId.get(row.agencyContactId) ?? { id: row.agencyContactId }) : null;
      if (include.includes('named_insureds')) {
        extra.named_insureds = row.namedInsureds.map((n) => ({
          ...(n.contactId ? byId.get(n.contactId) : {}),
          id: n.contactId,
          name: n.name,
        }));
      }
      if (include.includes('owner')) extra.owner = { username: row.owner };
      out.set(row.id, extra);
    }
    return out;
  };

  const includeList = (value: string | undefined) => {
    const list = (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = list.filter((s) => !['agents', 'agency', 'named_insureds', 'owner'].includes(s));
    if (unknown.length > 0) {
      throw badRequest(`Cannot include ${unknown.join(', ')}: use agents, agency, named_insureds or owner.`, {
        source: { parameter: 'include' },
      });
    }
    return list;
  };

  // ---- products and dates -------------------------------------------------------------------

  router.get(
    '/quote/quotable-products/',
    {
      config: { access: can('quote', 'create') },
      schema: {
        summary: 'Products with a published version in force on the date (effective_before, default today).',
        tags,
        security,
        querystring: z.strictObject({ effective_before: day.optional() }),
      },
    },
    async (request) => {
      const on = request.query.effective_before ?? new Date().toISOString().slice(0, 10);
      const products = await context.service(LINES_ONTOLOGY).products(db);
      const results = [];
      for (const p of products) {
        const version = await startedVersion(context, db, p.name, on);
        if (version) {
          results.push({
            name: p.name,
            label: p.label,
            product_id: p.id,
            version_id: version.versionId,
            version_label: version.versionLabel,
            effective_date: version.effectiveDate,
          });
        }
      }
      return { results };
    },
  );

  router.post(
    '/v2/lines/find_effective_date',
    {
      config: { access: can('quote', 'create') },
      schema: {
        summary: "The product version in force on a date; success false with 'Cannot find effective date' when none.",
        tags,
        security,
        body: z.strictObject({ date: day, product: z.string().trim().min(1).max(200) }),
      },
    },
    async (request) => {
      const { date, product } = request.body;
      const version = await startedVersion(context, db, product, date);
      if (!version) {
        return { success: false, messages: [`Cannot find effective date for ${product} on ${date}.`] };
      }
      return {
        success: true,
        messages: [],
        effective_date: version.effectiveDate,
        version_id: version.versionId,
        version_label: version.versionLabel,
      };
    },
  );

  // ---- quotes --------------------------------------------------------------------------------

  router.get(
    '/quote/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Quotes the caller may read: search (number, insured, product), filter[x], page[size], page[number].',
        tags,
        security,
        querystring: listQuery,
      },
    },
    async (request) => {
      const q = request.query;
      const include = includeList(q.include);
      const conditions: (SQL | undefined)[] = [await quoteScope(context, request.principal, 'read')];
      if (q.search) {
        const pattern = likeText(q.search);
        conditions.push(
          or(
            ilike(quote.number, pattern),
            ilike(quote.productLabel, pattern),
            sql`${quote.namedInsureds}::text ilike ${pattern}`,
          ),
        );
      }
      if (q['filter[status]']) conditions.push(inArray(quote.status, q['filter[status]'].split(',')));
      if (q['filter[product_name]']) conditions.push(eq(quote.productName, q['filter[product_name]']));
      if (q['filter[owner]']) conditions.push(eq(quote.owner, q['filter[owner]']));
      if (q['filter[is_bound]']) conditions.push(eq(quote.isBound, q['filter[is_bound]'] === 'true'));
      if (q['filter[agent]']) conditions.push(eq(quote.agentContactId, q['filter[agent]']));
      const where = and(...conditions);
      const size = q['page[size]'];
      const page = q['page[number]'];
      const order = {
        '-updated_at': [desc(quote.updatedAt), desc(quote.id)],
        updated_at: [asc(quote.updatedAt), asc(quote.id)],
        number: [asc(quote.number)],
        '-number': [desc(quote.number)],
        effective_date: [asc(quote.effectiveDate), asc(quote.id)],
        '-effective_date': [desc(quote.effectiveDate), desc(quote.id)],
      }[q.sort ?? '-updated_at'];
      const rows = await db
        .select()
        .from(quote)
        .where(where)
        .orderBy(...order)
        .limit(size)
        .offset((page - 1) * size);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(quote)
        .where(where);
      const extras = include.length > 0 ? await included(db, rows, include) : new Map();
      return {
        data: rows.map((row) => ({ ...summary(row), ...(extras.get(row.id) ?? {}) })),
        meta: { count: count?.n ?? 0, page: { number: page, size } },
      };
    },
  );

  router.post(
    '/quote/',
    {
      config: { access: can('quote', 'create') },
      schema: {
        summary: 'Creates a quote with its root risk (answers and items at their defaults).',
        tags,
        security,
        body: createQuoteBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const principal = request.principal;
      const result = await db.transaction(async (tx) => {
        const version = await startedVersion(context, tx, body.product_name, body.effective_date);
        if (!version) {
          throw badRequest(
            `Cannot find effective date: ${body.product_name} has no version in force on ${body.effective_date}.`,
            {
              source: { pointer: '/effective_date' },
            },
          );
        }
        const products = await productsOf(context, tx);
        const product = products.find((p) => p.name === version.productName)!;
        await assertQuotingPermission(context, tx, principal, 'quote', product, body.state ?? null);
        const expiration = body.expiration_date ?? addMonths(body.effective_date, 12);
        if (expiration <= body.effective_date) {
          throw badRequest('The expiration date must be after the effective date.', {
            source: { pointer: '/expiration_date' },
          });
        }
        // Producers quote in their own book; staff may name the agent.
        let agentContactId: string | null = null;
        let agencyContactId: string | null = null;
        if (isProducer(principal)) {
          const ids = producerIds(principal);
          agentContactId = principal!.effectiveRole!.toLowerCase() === 'agent' ? ids.contactId : null;
          agencyContactId = ids.agencyId;
          if (body.agent_contact_id && body.agent_contact_id !== agentContactId) {
            throw badRequest('Agents quote for themselves.', { source: { pointer: '/agent_contact_id' } });
          }
        } else if (body.agent_contact_id) {
          const [agent] = await directory().findContacts(tx, [body.agent_contact_id]);
          if (!agent)
            throw badRequest(`Contact ${body.agent_contact_id} not found.`, {
              source: { pointer: '/agent_contact_id' },
            });
          agentContactId = agent.id;
          agencyContactId = agent.agencyId;
        }
        const insured = await namedInsured(
          tx,
          body.named_insured,
          agentContactId,
          agencyContactId,
          principal?.username ?? 'system',
        );
        const [row] = await tx
          .insert(quote)
          .values({
            // The number from the sequence in the insert itself (not a statement of its own).
            number: sql`'Q-' || nextval('quote.quote_number')`,
            productName: version.productName,
            productLabel: product.label,
            productVersionId: version.versionId,
            productVersionLabel: version.versionLabel,
            effectiveDate: body.effective_date,
            expirationDate: expiration,
            state: body.state ?? null,
            namedInsureds: [insured],
            agentContactId,
            agencyContactId,
            owner: principal?.username ?? 'system',
            createdBy: principal?.username ?? 'system',
          })
          .returning();
        const event = quoteEventStatement(quoteCreated, row!, { from: null, trigger: 'create', by: username(request) });
        const flow = flowOf(version.productName, version);
        const rootType = flow.risk_types.find((t) => t.parent === null)!;
        // The root risk, its items, the first status line and the created event in one statement.
        const history = sql`insert into quote.status_history (quote_id, to_status, trigger, changed_by)
          values (${row!.id}, 'In Progress', 'create', ${username(request)})`;
        const root = await insertRisk(tx, row!.id, null, rootType, 'create', [history, event]);
        // A new quote: its tree is what was just written, no issue nor alert yet.
        const tree = treeOf([root.risk], root.items);
        return present(tx, row!, [], { tree, issues: [], alerts: [] });
      });
      // The nightly sweep of stale quotes (once per process and night; abandon.ts).
      void scheduleAbandonSweep(context);
      reply.code(201);
      return result;
    },
  );

  /** The named insured: a contact of the directory, or a new one in the producer's book. */
  const namedInsured = async (
    tx: Queryable,
    input: { contact_id: string } | { name: string },
    agent: string | null,
    agency: string | null,
    by: string,
  ): Promise<NamedInsured> => {
    if ('contact_id' in input) {
      const [found] = await directory().findContacts(tx, [input.contact_id]);
      if (!found)
        throw badRequest(`Contact ${input.contact_id} not found.`, {
          source: { pointer: '/named_insured/contact_id' },
        });
      await directory().addRole(tx, found.id, 'insured');
      return { contactId: found.id, name: found.name };
    }
    const id = await directory().createContact(tx, {
      name: input.name,
      roles: ['insured'],
      book: { agentContactId: agent, agencyContactId: agency },
      createdBy: by,
    });
    return { contactId: id, name: input.name };
  };

  /**
   * A new risk with its fields' defaults and its required and default items, in one statement
   * (with `also`, other data-modifying statements run with it).
   */
  const insertRisk = async (
    tx: Queryable,
    quoteId: number,
    parentId: number | null,
    type: FlowRiskType,
    generatedBy: string | null,
    also: SQL[] = [],
  ): Promise<{ risk: RiskRow; items: ItemRow[] }> => {
    const answers: Record<string, unknown> = {};
    for (const f of type.fields) if (f.default !== undefined) answers[f.name] = typedDefault(f);
    const items = type.items
      .filter((i) => i.presence !== 'optional')
      .map((i) => ({ name: i.name, limit: i.limit?.default ?? null, deductible: i.deductible?.default ?? null }));
    const result = await tx.execute(sql`with created as (
        insert into quote.risk (quote_id, parent_id, risk_type, answers, generated_by)
        values (${quoteId}, ${parentId}, ${type.name}, ${JSON.stringify(answers)}::jsonb, ${generatedBy})
        returning id, created_at
      ), items as (
        insert into quote.item (risk_id, name, "limit", deductible)
        select created.id, x.name, x."limit"::numeric, x.deductible::numeric
          from created, json_to_recordset(${JSON.stringify(items)}::json) as x(name text, "limit" text, deductible text)
        returning id, name, "limit"::text as "limit", deductible::text as deductible
      )${sql.join(
        also.map((statement, n) => sql`, ${sql.raw(`also${n}`)} as (${statement})`),
        sql``,
      )}
      select created.id, created.created_at,
        (select coalesce(json_agg(items order by items.id), '[]'::json) from items) as items
      from created`);
    const [row] = result.rows as { id: number; created_at: string | Date; items: unknown }[];
    const inserted = (typeof row!.items === 'string' ? JSON.parse(row!.items) : row!.items) as {
      id: number;
      name: string;
      limit: string | null;
      deductible: string | null;
    }[];
    return {
      risk: {
        id: row!.id,
        quoteId,
        parentId,
        riskType: type.name,
        answers,
        locked: false,
        generatedBy,
        createdAt: new Date(row!.created_at),
      },
      items: inserted.map((i) => ({ ...i, riskId: row!.id, limits: {} })),
    };
  };

  router.get(
    '/quote/:number/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'One quote with its risk tree, underwriting issues and alerts.',
        tags,
        security,
        params: quoteNumberParams,
        querystring: z.strictObject({ include: z.string().max(200).optional() }),
      },
    },
    async (request) => {
      const include = includeList(request.query.include);
      const row = await findQuote(db, request, request.params.number);
      const product = { name: row.productName, label: row.productLabel };
      return {
        ...(await present(db, row, include)),
        // What the caller's quoting permissions allow on this quote (the screen hides the rest).
        quoting_actions: await quotingActions(context, db, request.principal, product, row.state),
      };
    },
  );

  router.put(
    '/quote/:number/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Changes the quote’s dates, state or named insured.',
        tags,
        security,
        params: quoteNumberParams,
        body: updateQuoteBody,
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'update', true);
        await beforeEdit(tx, row, username(request));
        const body = request.body;
        const effective = body.effective_date ?? row.effectiveDate;
        const expiration =
          body.expiration_date ?? (body.effective_date ? addMonths(effective, 12) : row.expirationDate);
        if (expiration <= effective) {
          throw badRequest('The expiration date must be after the effective date.', {
            source: { pointer: '/expiration_date' },
          });
        }
        if (body.effective_date && !(await startedVersion(context, tx, row.productName, effective))) {
          throw badRequest(`Cannot find effective date: ${row.productLabel} has no version in force on ${effective}.`, {
            source: { pointer: '/effective_date' },
          });
        }
        const values: Partial<QuoteRow> = {
          effectiveDate: effective,
          expirationDate: expiration,
          updatedAt: new Date(),
        };
        if (body.state !== undefined) {
          const product = { name: row.productName, label: row.productLabel };
          await assertQuotingPermission(context, tx, request.principal, 'quote', product, body.state);
          values.state = body.state;
        }
        if (body.named_insured) {
          values.namedInsureds = [
            await namedInsured(tx, body.named_insured, row.agentContactId, row.agencyContactId, username(request)),
          ];
        }
        await tx.update(quote).set(values).where(eq(quote.id, row.id));
        return present(tx, { ...row, ...values });
      }),
  );

  router.delete(
    '/quote/:number/',
    {
      config: { access: can('quote', 'delete') },
      schema: { summary: 'Discards a quote that is not bound.', tags, security, params: quoteNumberParams },
    },
    async (request, reply) => {
      await db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'delete', true);
        if (row.isBound || row.isBinding)
          throw conflict(`Quote ${row.number} is bound and cannot be discarded.`, { code: 'bound' });
        await tx.delete(quote).where(eq(quote.id, row.id));
      });
      reply.code(204);
    },
  );

  router.post(
    '/quote/:number/assign/:owner/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Gives the quote another owner (a username).',
        tags,
        security,
        params: z.strictObject({ number: z.string().max(40), owner: z.string().trim().min(1).max(200) }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'update', true);
        if (isProducer(request.principal) && request.params.owner !== request.principal!.username) {
          throw badRequest('Agents assign quotes to themselves only.', { source: { parameter: 'owner' } });
        }
        await tx.update(quote).set({ owner: request.params.owner, updatedAt: new Date() }).where(eq(quote.id, row.id));
        return present(tx, { ...row, owner: request.params.owner });
      }),
  );

  router.get(
    '/quote/:number/flow/',
    {
      config: { access: can('quote', 'read') },
      schema: { summary: 'The page flow of the quote’s product version.', tags, security, params: quoteNumberParams },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number);
      return flowFor(db, row);
    },
  );

  // ---- risks and items -----------------------------------------------------------------------

  const rulesOut = (actions: ElementState[]) => actions;

  /** The rules' answer for a tree, and the issues synced when `sync`. */
  const evaluate = async (
    tx: Queryable,
    request: FastifyRequest,
    row: QuoteRow,
    tree: RiskNode | null,
    sync: boolean,
    knownIssues?: IssueRow[],
  ) => {
    const result = await runRules(context, tx, row, tree, request.principal);
    const issues = sync ? await syncIssues(tx, row.id, result.issues, knownIssues) : undefined;
    // The issue rows ride along, not enumerable: callers read them, answers do not carry them.
    return Object.defineProperty(
      {
        actions: rulesOut(result.actions),
        issues: (issues ?? []).map(presentIssue),
        raised: result.issues,
        errors: result.errors,
        rules_version: result.effectiveDate?.effective_date ?? null,
      },
      'rows',
      { value: issues ?? [], enumerable: false },
    ) as EvaluateAnswer;
  };

  router.post(
    '/quote/risks/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Adds a risk under a parent risk (dry_run: answers the new risk without keeping it).',
        tags,
        security,
        querystring: z.strictObject({ dry_run: z.enum(['true', 'false']).optional(), rules_action: rulesAction }),
        body: z.strictObject({
          quote: z.string().trim().min(1).max(40),
          parent_risk_quote: idParam.nullable().optional(),
          risk_type_name: z.string().trim().min(1).max(100),
          generated_by: z.string().max(100).nullable().optional(),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const dryRun = request.query.dry_run === 'true';
      const work = async (tx: Queryable) => {
        const row = await findQuote(tx, request, body.quote, 'update', true);
        await beforeEdit(tx, row, username(request));
        const flow = await flowFor(tx, row);
        const type = flow.risk_types.find((t) => t.name === body.risk_type_name);
        if (!type)
          throw badRequest(`Risk type ${body.risk_type_name} is not in ${row.productLabel}.`, {
            source: { pointer: '/risk_type_name' },
          });
        const tree = await loadTree(tx, row.id);
        const parentId = body.parent_risk_quote ?? tree?.id ?? null;
        const parent = parentId !== null ? findNode(tree, parentId) : null;
        if (type.parent === null)
          throw badRequest(`A quote has one ${type.label} risk.`, { source: { pointer: '/risk_type_name' } });
        if (!parent || parent.risk_state.type.name !== type.parent) {
          throw badRequest(`A ${type.label} goes under a ${type.parent} risk of this quote.`, {
            source: { pointer: '/parent_risk_quote' },
          });
        }
        const acting = await pluginAudit.actingPlugin(tx, request, ['create-and-update-risk', 'api-write']);
        const { risk: created } = await insertRisk(tx, row.id, parent.id, type, body.generated_by ?? null);
        if (acting) {
          await pluginAudit.record(tx, request, {
            plugin: acting,
            action: 'create-risk',
            quoteId: row.id,
            riskId: created.id,
            riskType: type.name,
          });
        }
        const after = await loadTree(tx, row.id);
        const node = findNode(after, created.id)!;
        const rules =
          request.query.rules_action && request.query.rules_action !== 'none'
            ? await evaluate(tx, request, row, after, true)
            : null;
        return { ...node, quote: row.number, ...(rules ? { rules } : {}) };
      };
      if (!dryRun) {
        const out = await db.transaction(work);
        reply.code(201);
        return out;
      }
      // A dry run does the work and rolls it back.
      let answer: unknown;
      try {
        await db.transaction(async (tx) => {
          answer = await work(tx);
          throw new DryRun();
        });
      } catch (error) {
        if (!(error instanceof DryRun)) throw error;
      }
      return answer;
    },
  );

  router.get(
    '/quote/risks/:id/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'One risk with its items and child risks.',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
      },
    },
    async (request) => {
      const { row } = await findRisk(db, request, request.params.id);
      return { ...findNode(await loadTree(db, row.id), request.params.id)!, quote: row.number };
    },
  );

  router.put(
    '/quote/risks/:id/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary:
          'Saves a risk’s answers and items. With target_page_name (moving on from page_name) the page is checked: required fields, the rules’ mandatory and validation.',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
        querystring: z.strictObject({
          rules_action: rulesAction,
          page_name: z.string().max(100).optional(),
          target_page_name: z.string().max(100).optional(),
        }),
        // plugin_patch: the JSON Patch of a plugin's update-risk, kept in the audit entry (with X-Atrium-Plugin).
        body: z.strictObject({ risk_state: riskStateInput, plugin_patch: pluginPatch.optional() }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const { row, riskRow } = await findRisk(tx, request, request.params.id, 'update', true);
        if (riskRow.locked) throw conflict(`Risk ${riskRow.id} is locked and cannot be changed.`, { code: 'locked' });
        if (row.isBound || row.locked)
          throw conflict(`Quote ${row.number} is locked and cannot be changed.`, { code: 'locked' });
        const acting = await pluginAudit.actingPlugin(tx, request, ['update-risk', 'api-write']);
        if (request.body.plugin_patch && !acting)
          throw badRequest('plugin_patch is sent only with the X-Atrium-Plugin header.', {
            source: { pointer: '/plugin_patch' },
          });
        const flow = await flowFor(tx, row);
        const type = flow.risk_types.find((t) => t.name === riskRow.riskType)!;
        const state = request.body.risk_state;
        // Tree, issues and alerts as committed before the lock was granted; the tree after the save
        // is this one with the change applied (not read again).
        const known = await loadState(tx, row.id);
        const before = known.tree;
        const beforeNode = findNode(before, riskRow.id)!;
        const tree = structuredClone(before);
        const node = findNode(tree, riskRow.id)!;
        const answers = { ...beforeNode.risk_state.field_answers };
        for (const [name, value] of Object.entries(state.field_answers)) {
          const field = type.fields.find((f) => f.name === name);
          if (!field)
            throw badRequest(`${type.label} has no field ${name}.`, {
              source: { pointer: `/risk_state/field_answers/${name}` },
            });
          const problem = checkAnswer(field, value);
          if (problem) throw badRequest(problem, { source: { pointer: `/risk_state/field_answers/${name}` } });
          answers[name] = normalise(field, value);
        }
        node.risk_state.field_answers = answers;
        const answersChanged = JSON.stringify(answers) !== JSON.stringify(beforeNode.risk_state.field_answers);
        if (state.items) {
          for (const i of state.items) {
            if (!type.items.some((t) => t.name === i.name)) {
              throw badRequest(`${type.label} has no coverage ${i.name}.`, {
                source: { pointer: '/risk_state/items' },
              });
            }
          }
          const names = state.items.map((i) => i.name);
          const required = type.items.filter((t) => t.presence === 'required' && !names.includes(t.name));
          if (required.length > 0) {
            throw badRequest(`${required.map((t) => t.label).join(', ')} cannot be removed.`, {
              source: { pointer: '/risk_state/items' },
            });
          }
          await tx.delete(item).where(eq(item.riskId, riskRow.id));
          const inserted =
            state.items.length > 0
              ? await tx
                  .insert(item)
                  .values(
                    state.items.map((i) => ({
                      riskId: riskRow.id,
                      name: i.name,
                      limit: i.limit ?? null,
                      deductible: i.deductible ?? null,
                      limits: i.limits ?? {},
                    })),
                  )
                  .returning()
              : [];
          node.risk_state.items = inserted
            .sort((a, b) => a.id - b.id)
            .map((i) => ({ id: i.id, name: i.name, limit: i.limit, deductible: i.deductible, limits: i.limits }));
        }
        // Only a change is an edit (a page walked through unchanged keeps the quote's status and
        // writes nothing); the answers' update rides on the edit's quote update (one statement).
        const shape = (n: RiskNode) =>
          JSON.stringify([
            n.risk_state.field_answers,
            n.risk_state.items.map((i) => [i.name, i.limit, i.deductible, i.limits]),
          ]);
        if (shape(beforeNode) !== shape(node)) {
          await beforeEdit(
            tx,
            row,
            username(request),
            answersChanged
              ? sql`update quote.risk set answers = ${JSON.stringify(answers)}::jsonb where id = ${riskRow.id}`
              : undefined,
          );
          if (acting) {
            await pluginAudit.record(tx, request, {
              plugin: acting,
              action: 'update-risk',
              quoteId: row.id,
              riskId: riskRow.id,
              riskType: riskRow.riskType,
              patch: request.body.plugin_patch,
              ...changedAnswers(beforeNode.risk_state.field_answers, answers),
            });
          }
        }
        const wantRules =
          (request.query.rules_action && request.query.rules_action !== 'none') || request.query.target_page_name;
        const rules = wantRules ? await evaluate(tx, request, row, tree, true, known.issues) : null;
        if (request.query.target_page_name && rules) {
          const page = flowPages(flow).find((p) => p.name === request.query.page_name);
          const types = page?.components.flatMap((c) => (c.type === 'riskEdit' ? [c.risk_type] : []));
          const errors = pageErrors(flow, tree!, rules.actions, types);
          if (errors.length > 0) {
            throw new ApiError(400, errors[0]!.detail, {
              code: 'invalid_page',
              issues: errors.map((e) => ({ detail: e.detail, source: { pointer: e.pointer } })),
            } as never);
          }
        }
        return { ...node, quote: row.number, ...(rules ? { rules } : {}) };
      }),
  );

  router.delete(
    '/quote/risks/:id/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Removes a child risk (the root risk stays).',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
        querystring: z.strictObject({ rules_action: rulesAction }),
      },
    },
    async (request, reply) => {
      const out = await db.transaction(async (tx) => {
        const { row, riskRow } = await findRisk(tx, request, request.params.id, 'update', true);
        if (riskRow.parentId === null)
          throw conflict('The quote’s first risk cannot be removed.', { code: 'root_risk' });
        if (riskRow.locked) throw conflict(`Risk ${riskRow.id} is locked and cannot be changed.`, { code: 'locked' });
        const acting = await pluginAudit.actingPlugin(tx, request, ['create-and-update-risk', 'api-write']);
        await beforeEdit(tx, row, username(request));
        await deleteRiskTree(tx, row.id, riskRow.id);
        if (acting) {
          await pluginAudit.record(tx, request, {
            plugin: acting,
            action: 'remove-risk',
            quoteId: row.id,
            riskId: riskRow.id,
            riskType: riskRow.riskType,
            before: riskRow.answers,
          });
        }
        if (request.query.rules_action && request.query.rules_action !== 'none') {
          return { rules: await evaluate(tx, request, row, await loadTree(tx, row.id), true) };
        }
        return null;
      });
      if (!out) reply.code(204);
      return out ?? undefined;
    },
  );

  router.post(
    '/quote/risks/:id/evaluate/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'The rules’ UI controls and underwriting issues for the quote as it stands.',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
        querystring: z.strictObject({ rules_action: rulesAction }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const { row } = await findRisk(tx, request, request.params.id);
        const writable = !row.isBound && !row.locked && (await allowed(request.principal, 'update', row));
        return evaluate(tx, request, row, await loadTree(tx, row.id), writable);
      }),
  );

  router.post(
    '/quote/risks/:id/finalize/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Checks every page of the risk tree: required answers and the rules’ validation.',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const { row } = await findRisk(tx, request, request.params.id, 'update');
        const flow = await flowFor(tx, row);
        const tree = await loadTree(tx, row.id);
        const rules = await evaluate(tx, request, row, tree, true);
        const errors = pageErrors(flow, tree!, rules.actions);
        return { valid: errors.length === 0, errors, rules };
      }),
  );

  router.post(
    '/quote/risks/:id/fields/:field/validate-answer/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Checks one answer (its type, options and the rules’ validation) without saving it.',
        tags,
        security,
        params: z.strictObject({ id: idParam, field: z.string().max(100) }),
        body: z.strictObject({
          answer: answerValue,
          field_overrides: z.record(z.string().max(100), answerValue).optional(),
        }),
      },
    },
    async (request) => {
      const { row, riskRow } = await findRisk(db, request, request.params.id);
      const flow = await flowFor(db, row);
      const type = flow.risk_types.find((t) => t.name === riskRow.riskType)!;
      const field = type.fields.find((f) => f.name === request.params.field);
      if (!field) throw notFound(`${type.label} has no field ${request.params.field}.`);
      const problem = checkAnswer(field, request.body.answer);
      if (problem) return { valid: false, message: problem };
      const tree = await loadTree(db, row.id);
      const node = findNode(tree, riskRow.id)!;
      node.risk_state.field_answers = {
        ...node.risk_state.field_answers,
        ...(request.body.field_overrides ?? {}),
        [field.name]: normalise(field, request.body.answer),
      };
      const result = await runRules(context, db, row, tree, request.principal);
      const element = elementName(tree!, node, field.name);
      const state = result.actions.find((a) => a.name === element);
      if (state && !state.isValid)
        return { valid: false, message: state.validationMessage ?? 'This answer is not valid.' };
      if (state?.optionsBlacklist?.includes(String(request.body.answer))) {
        return { valid: false, message: `${String(request.body.answer)} is not available.` };
      }
      return { valid: true, message: null };
    },
  );

  router.post(
    '/quote/items/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Adds a coverage item to a risk (its default limit and deductible).',
        tags,
        security,
        body: z.strictObject({ risk_quote: idParam, risk_item_name: z.string().trim().min(1).max(100) }),
      },
    },
    async (request, reply) => {
      const out = await db.transaction(async (tx) => {
        const { row, riskRow } = await findRisk(tx, request, request.body.risk_quote, 'update', true);
        await beforeEdit(tx, row, username(request));
        const flow = await flowFor(tx, row);
        const type = flow.risk_types.find((t) => t.name === riskRow.riskType)!;
        const def = type.items.find((i) => i.name === request.body.risk_item_name);
        if (!def)
          throw badRequest(`${type.label} has no coverage ${request.body.risk_item_name}.`, {
            source: { pointer: '/risk_item_name' },
          });
        const [created] = await tx
          .insert(item)
          .values({
            riskId: riskRow.id,
            name: def.name,
            limit: def.limit?.default ?? null,
            deductible: def.deductible?.default ?? null,
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw conflict(`The risk already has ${def.label}.`, { code: 'duplicate_item' });
        return {
          id: created.id,
          name: created.name,
          limit: created.limit,
          deductible: created.deductible,
          limits: created.limits,
          risk_quote: riskRow.id,
        };
      });
      reply.code(201);
      return out;
    },
  );

  router.delete(
    '/quote/items/:id/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary: 'Removes a coverage item (not a required one).',
        tags,
        security,
        params: z.strictObject({ id: idParam }),
      },
    },
    async (request, reply) => {
      await db.transaction(async (tx) => {
        const [found] = await tx.select().from(item).where(eq(item.id, request.params.id));
        if (!found) throw notFound(`Item ${request.params.id} not found.`);
        const { row, riskRow } = await findRisk(tx, request, found.riskId, 'update', true);
        await beforeEdit(tx, row, username(request));
        const flow = await flowFor(tx, row);
        const def = flow.risk_types.find((t) => t.name === riskRow.riskType)?.items.find((i) => i.name === found.name);
        if (def?.presence === 'required') throw conflict(`${def.label} cannot be removed.`, { code: 'required_item' });
        await tx.delete(item).where(eq(item.id, found.id));
      });
      reply.code(204);
    },
  );

  // ---- rate, submit, status ------------------------------------------------------------------

  router.post(
    '/quote/:number/rate/',
    {
      config: { access: can('quote', 'rate') },
      schema: {
        summary: 'Rates the quote on the product version in force at its effective date.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'rate', true);
        if (row.isBound || row.locked)
          throw conflict(`Quote ${row.number} is locked and cannot be rated.`, { code: 'locked' });
        const { tree, issues, alerts } = await loadState(tx, row.id);
        const rules = await evaluate(tx, request, row, tree, true, issues);
        const blocking = blockingIssues(rules.rows, 'rate');
        if (blocking.length > 0) throw blockedError('rated', blocking);
        const { result, version, ratedAt, difference, row: fresh } = await rateQuote(context, tx, row, tree);
        return {
          ...(await present(tx, fresh, [], { tree, issues: rules.rows, alerts })),
          rating: {
            product: result.product,
            version_id: version.versionId,
            premium: { term: result.termPremium, pro_rata: result.premium, fully_earned: result.fullyEarnedPremium },
            term: result.term,
            worksheet: result.worksheet,
            rated_at: ratedAt.toISOString(),
            difference,
          },
          rules,
        };
      }),
  );

  router.get(
    '/quote/:number/rating/difference/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary:
          'What the last re-rate changed: premium before and after, each coverage’s premium, the factors that moved and why.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number);
      return storedDifference(context, db, row);
    },
  );

  router.post(
    '/quote/:number/submit/',
    {
      config: { access: can('quote', 'submit') },
      schema: {
        summary: 'Submits the rated quote: Approved when no underwriting issue is open, else In Review.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const found = await findQuoteWithGrants(context, tx, request.principal, request.params.number, 'submit');
        if (!found) throw notFound(`Quote ${request.params.number} not found.`);
        const { row, grants } = found;
        const product = { name: row.productName, label: row.productLabel };
        await assertQuotingPermission(context, tx, request.principal, 'submit', product, row.state, grants);
        if (row.isBound || row.locked) throw conflict(`Quote ${row.number} is locked.`, { code: 'locked' });
        if (row.status !== 'In Progress')
          throw conflict(`Only a quote In Progress can be submitted; this one is ${row.status}.`, { code: 'status' });
        if (!row.lastRatedAt || row.ratingStale)
          throw conflict('Rate the quote before submitting it.', { code: 'not_rated' });
        const known = await loadState(tx, row.id);
        const tree = known.tree;
        const rules = await evaluate(tx, request, row, tree, true, known.issues);
        const issues = rules.rows;
        const open = issues.filter((i) => i.status === 'open' && i.blocking !== 'none');
        const rejected = issues.some((i) => i.status === 'rejected');
        const alerts = await changeStatus(
          tx,
          row,
          open.length > 0 || rejected ? 'In Review' : 'Approved',
          'submit',
          username(request),
          null,
          known.alerts,
        );
        return { ...(await present(tx, row, [], { tree, issues, alerts: alerts ?? known.alerts })), rules };
      }),
  );

  router.get(
    '/quote/:number/status/triggers/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'The status triggers the caller may run on the quote now.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number);
      const results = [];
      for (const t of TRIGGERS) {
        if (row.isBound || !t.from.includes(row.status as QuoteStatus)) continue;
        if (!(await allowed(request.principal, t.action, row))) continue;
        results.push({ name: t.name, label: t.label, to: t.to, reason_required: !!t.reasonRequired });
      }
      return { results };
    },
  );

  router.post(
    '/quote/:number/status/triggers/:name/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Runs a status trigger (approve, decline, abandon, reopen); answers the reloaded quote.',
        tags,
        security,
        params: z.strictObject({ number: z.string().max(40), name: z.string().max(50) }),
        body: z.strictObject({ reason: z.string().trim().max(2000).optional() }).optional(),
      },
    },
    async (request) => {
      const trigger = TRIGGERS.find((t) => t.name === request.params.name);
      if (!trigger) throw notFound(`Trigger ${request.params.name} not found.`);
      // The permission is asked before the transaction: the evaluator may read the database on its
      // own connection, and on the embedded database (one connection) a read waiting behind this
      // transaction would wait for ever.
      const before = await findQuote(db, request, request.params.number, 'read');
      if (!(await allowed(request.principal, trigger.action, before))) {
        throw new ApiError(403, 'This operation is not allowed. (Error code: 403)');
      }
      return db.transaction(async (tx) => {
        const row = await findQuote(tx, request, request.params.number, 'read', true);
        if (row.isBound || !trigger.from.includes(row.status as QuoteStatus)) {
          throw conflict(`${trigger.label} is not possible while the quote is ${row.isBound ? 'bound' : row.status}.`, {
            code: 'status',
          });
        }
        const reason = request.body?.reason || null;
        if (trigger.reasonRequired && !reason) throw badRequest('Give a reason.', { source: { pointer: '/reason' } });
        if (trigger.name === 'approve') {
          // Approving the quote clears its open issues with the underwriter's authority.
          await tx
            .update(underwritingIssue)
            .set({ status: 'approved', resolvedBy: username(request), resolvedAt: new Date(), reason })
            .where(and(eq(underwritingIssue.quoteId, row.id), eq(underwritingIssue.status, 'open')));
        }
        await changeStatus(tx, row, trigger.to, trigger.name, username(request), reason);
        const [fresh] = await tx.select().from(quote).where(eq(quote.id, row.id));
        return present(tx, fresh!);
      });
    },
  );

  router.get(
    '/quote/review-queue/',
    {
      config: { access: can('quote', 'underwrite') },
      schema: {
        summary:
          'The underwriter’s review queue: quotes In Review (referrals), longest waiting first, each with its open underwriting issues.',
        tags,
        security,
        querystring: z.strictObject({
          search: z.string().trim().max(200).optional(),
          'filter[product_name]': z.string().trim().max(100).optional(),
          'page[size]': z.coerce.number().int().min(1).max(100).default(25),
          'page[number]': z.coerce.number().int().min(1).max(100_000).default(1),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const conditions: (SQL | undefined)[] = [
        await quoteScope(context, request.principal, 'underwrite'),
        eq(quote.status, 'In Review'),
      ];
      if (q.search) {
        const pattern = likeText(q.search);
        conditions.push(or(ilike(quote.number, pattern), sql`${quote.namedInsureds}::text ilike ${pattern}`));
      }
      if (q['filter[product_name]']) conditions.push(eq(quote.productName, q['filter[product_name]']));
      const where = and(...conditions);
      const size = q['page[size]'];
      const page = q['page[number]'];
      const rows = await db
        .select()
        .from(quote)
        .where(where)
        .orderBy(asc(quote.updatedAt), asc(quote.id))
        .limit(size)
        .offset((page - 1) * size);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(quote)
        .where(where);
      const issues =
        rows.length > 0
          ? await db
              .select()
              .from(underwritingIssue)
              .where(
                and(
                  inArray(
                    underwritingIssue.quoteId,
                    rows.map((r) => r.id),
                  ),
                  inArray(underwritingIssue.status, ['open', 'rejected']),
                ),
              )
              .orderBy(asc(underwritingIssue.id))
          : [];
      return {
        data: rows.map((row) => ({
          ...summary(row),
          underwriting_issues: issues.filter((i) => i.quoteId === row.id).map(presentIssue),
        })),
        meta: { count: count?.n ?? 0, page: { number: page, size } },
      };
    },
  );

  router.post(
    '/quote/:number/underwriting-issues/:id/:decision/',
    {
      config: { access: can('quote', 'underwrite') },
      schema: {
        summary:
          'Clears one underwriting issue (a referral) with a reason: approve or reject (its authority only). A quote In Review whose last open issue is approved becomes Approved; a rejected issue declines it.',
        tags,
        security,
        params: z.strictObject({ number: z.string().max(40), id: idParam, decision: z.enum(['approve', 'reject']) }),
        body: z.strictObject({ reason: z.string().trim().max(2000).optional() }),
      },
    },
    async (request) => {
      // The permission on the quote is asked before the transaction (see the status triggers).
      const before = await findQuote(db, request, request.params.number, 'underwrite');
      const reason = request.body.reason || null;
      if (!reason) throw badRequest('Give a reason.', { source: { pointer: '/reason' } });
      return db.transaction(async (tx) => {
        const row = await findQuote(tx, request, before.number, 'underwrite', true);
        if (row.isBound || row.locked) throw conflict(`Quote ${row.number} is locked.`, { code: 'locked' });
        if (row.status === 'Declined' || row.status === 'Abandoned') {
          throw conflict(`Quote ${row.number} is ${row.status}: its issues cannot be cleared.`, { code: 'status' });
        }
        const [issue] = await tx
          .select()
          .from(underwritingIssue)
          .where(and(eq(underwritingIssue.id, request.params.id), eq(underwritingIssue.quoteId, row.id)));
        if (!issue) throw notFound(`Underwriting issue ${request.params.id} not found.`);
        if (issue.status !== 'open')
          throw conflict(`Underwriting issue ${issue.code} is already ${issue.status}.`, { code: 'issue_closed' });
        if (!mayClear(request.principal, issue.authority)) {
          throw new ApiError(403, `Only ${issue.authority} may clear ${issue.code}.`);
        }
        const decision = request.params.decision === 'approve' ? 'approved' : 'rejected';
        await tx
          .update(underwritingIssue)
          .set({ status: decision, resolvedBy: username(request), resolvedAt: new Date(), reason })
          .where(eq(underwritingIssue.id, issue.id));
        if (row.status === 'In Review') {
          const issues = await tx.select().from(underwritingIssue).where(eq(underwritingIssue.quoteId, row.id));
          if (decision === 'rejected') {
            await changeStatus(tx, row, 'Declined', 'referral', username(request), `${issue.code}: ${reason}`);
          } else if (!issues.some((i) => i.status === 'rejected' || (i.status === 'open' && i.blocking !== 'none'))) {
            await changeStatus(tx, row, 'Approved', 'referral', username(request), `${issue.code}: ${reason}`);
          }
        }
        const [fresh] = await tx.select().from(quote).where(eq(quote.id, row.id));
        return present(tx, fresh!);
      });
    },
  );

  router.get(
    '/quote/:number/rules/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'The rules’ UI controls and the quote’s underwriting issues.',
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number);
      const tree = await loadTree(db, row.id);
      const result = await runRules(context, db, row, tree, request.principal);
      const issues = await db
        .select()
        .from(underwritingIssue)
        .where(eq(underwritingIssue.quoteId, row.id))
        .orderBy(asc(underwritingIssue.id));
      return {
        actions: result.actions,
        raised: result.issues,
        issues: issues.map(presentIssue),
        rules_version: result.effectiveDate?.effective_date ?? null,
      };
    },
  );

  router.delete(
    '/quote/:number/alerts/:id/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Dismisses an alert of the quote.',
        tags,
        security,
        params: z.strictObject({ number: z.string().max(40), id: idParam }),
      },
    },
    async (request, reply) => {
      const row = await findQuote(db, request, request.params.number);
      const deleted = await db
        .delete(alert)
        .where(and(eq(alert.id, request.params.id), eq(alert.quoteId, row.id)))
        .returning({ id: alert.id });
      if (deleted.length === 0) throw notFound(`Alert ${request.params.id} not found.`);
      reply.code(204);
    },
  );

  router.get(
    '/quote/quick-search/',
    {
      config: { access: can('quote', 'read') },
      schema: {
        summary: 'Quotes whose number or insured contains the text (quick search, at most 5 by default).',
        tags,
        security,
        querystring: z.strictObject({
          q: z.string().trim().min(1).max(200),
          limit: z.coerce.number().int().min(1).max(25).default(5),
        }),
      },
    },
    async (request) => {
      const pattern = likeText(request.query.q);
      const rows = await db
        .select()
        .from(quote)
        .where(
          and(
            await quoteScope(context, request.principal, 'read'),
            or(ilike(quote.number, pattern), sql`${quote.namedInsureds}::text ilike ${pattern}`),
          ),
        )
        .orderBy(desc(quote.updatedAt))
        .limit(request.query.limit);
      return { results: rows.map(summary) };
    },
  );

  async function deleteRiskTree(tx: Queryable, quoteId: number, id: number) {
    const all = await tx.select({ id: risk.id, parentId: risk.parentId }).from(risk).where(eq(risk.quoteId, quoteId));
    const doomed = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const r of all)
        if (r.parentId !== null && doomed.has(r.parentId) && !doomed.has(r.id)) {
          doomed.add(r.id);
          grew = true;
        }
    }
    await tx.delete(risk).where(inArray(risk.id, [...doomed]));
  }
}

class DryRun extends Error {}

/** A risk row as row_to_json gives it. */
interface RiskJson {
  id: number;
  quote_id: number;
  parent_id: number | null;
  risk_type: string;
  answers: Record<string, unknown>;
  locked: boolean;
  generated_by: string | null;
  created_at: string;
}

/** The rules' answer on a quote, with the quote's issue rows when they were synced. */
type EvaluateAnswer = {
  actions: ElementState[];
  issues: ReturnType<typeof presentIssue>[];
  raised: unknown[];
  errors: unknown[];
  rules_version: string | null;
  readonly rows: IssueRow[];
};

/** Whether the caller holds the authority an issue names (the role acting now; Administrator always). */
export function mayClear(principal: Principal | undefined, authority: string): boolean {
  const roles = principal?.effectiveRole ? [principal.effectiveRole] : (principal?.roles ?? []);
  return roles.some((r) => r.toLowerCase() === authority.toLowerCase() || r === 'Administrator');
}

export const accessRecord = (row: QuoteRow) => ({
  number: row.number,
  status: row.status,
  product_name: row.productName,
  owner: row.owner,
  agent_contact_id: row.agentContactId,
  agency_contact_id: row.agencyContactId,
});

export const presentIssue = (i: typeof underwritingIssue.$inferSelect) => ({
  id: i.id,
  code: i.code,
  severity: i.severity,
  blocking: i.blocking,
  message: i.message,
  risk: i.risk,
  status: i.status,
  authority: i.authority,
  resolved_by: i.resolvedBy,
  resolved_at: i.resolvedAt?.toISOString() ?? null,
  reason: i.reason,
});

/** The quote's own fields (spec: Quote), without its risk tree. */
export function summary(row: QuoteRow) {
  return {
    id: row.id,
    quote_number: row.number,
    product_name: row.productName,
    product_label: row.productLabel,
    product_version: row.productVersionId,
    product_version_label: row.productVersionLabel,
    status: row.status,
    transaction_type: row.transactionType,
    premium: row.premiumTerm === null ? null : { term: row.premiumTerm, pro_rata: row.premiumProRata },
    last_rated_at: row.lastRatedAt?.toISOString() ?? null,
    rating_stale: row.ratingStale,
    is_bound: row.isBound,
    is_binding: row.isBinding,
    meta: { locked: row.locked || row.isBound },
    policy_state: {
      effective_date: row.effectiveDate,
      term_effective_date: row.effectiveDate,
      inception_date: row.effectiveDate,
    },
    term: { effective_date: row.effectiveDate, expiration_date: row.expirationDate },
    state: row.state,
    has_pending_contacts_sync: false,
    source_policy_id: row.sourcePolicyId,
    named_insureds: row.namedInsureds.map((n) => ({ id: n.contactId, name: n.name })),
    agent_contact_id: row.agentContactId,
    agency_contact_id: row.agencyContactId,
    owner: row.owner,
    policy: row.policyId ? { id: row.policyId, policy_number: row.policyNumber } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function typedDefault(field: FlowField): unknown {
  if (field.default === undefined) return undefined;
  if (field.type === 'number') return Number(field.default);
  if (field.type === 'boolean') return field.default === 'true';
  return field.default;
}

/** Why an answer does not fit its field (type, options), or null. */
export function checkAnswer(field: FlowField, value: unknown): string | null {
  if (value === null || value === '') return null;
  switch (field.type) {
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()))
        ? null
        : `${field.label} must be a number.`;
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false'
        ? null
        : `${field.label} must be yes or no.`;
    case 'date':
      return typeof value === 'string' && day.safeParse(value).success ? null : `${field.label} must be a date.`;
    case 'enum':
      return field.options?.includes(String(value))
        ? null
        : `${field.label} must be one of ${(field.options ?? []).join(', ')}.`;
    default:
      return typeof value === 'string' ? null : `${field.label} must be text.`;
  }
}

function normalise(field: FlowField, value: unknown): unknown {
  if (value === null || value === '') return null;
  if (field.type === 'number') return Number(value);
  if (field.type === 'boolean') return value === true || value === 'true';
  if (field.type === 'date') return day.parse(value);
  return value;
}

/** The rules' element name of a field: `field` on the root, `type#id.field` below it. */
export function elementName(root: RiskNode, node: RiskNode, field: string) {
  return node.id === root.id ? field : `${node.risk_state.type.name}#${node.id}.${field}`;
}

/** Every problem of the tree's answers: required (flow or rules) and the rules' validation. */
export function pageErrors(flow: QuoteFlow, root: RiskNode, actions: ElementState[], onlyTypes?: string[]) {
  const errors: { risk: number; field: string; detail: string; pointer: string }[] = [];
  const byName = new Map(actions.map((a) => [a.name, a]));
  const walk = (node: RiskNode) => {
    const type = flow.risk_types.find((t) => t.name === node.risk_state.type.name);
    const checked = !onlyTypes || onlyTypes.includes(node.risk_state.type.name);
    for (const field of checked ? (type?.fields ?? []) : []) {
      const state = byName.get(elementName(root, node, field.name));
      if (state && !state.visible) continue;
      const value = node.risk_state.field_answers[field.name];
      const empty = value === undefined || value === null || value === '';
      const pointer = `/risks/${node.id}/field_answers/${field.name}`;
      if (empty && (field.required || state?.mandatory)) {
        errors.push({ risk: node.id, field: field.name, detail: `${field.label} is required.`, pointer });
      } else if (state && !state.isValid) {
        errors.push({
          risk: node.id,
          field: field.name,
          detail: state.validationMessage ?? `${field.label} is not valid.`,
          pointer,
        });
      } else if (!empty && state?.optionsBlacklist?.includes(String(value))) {
        errors.push({
          risk: node.id,
          field: field.name,
          detail: `${String(value)} is not available for ${field.label}.`,
          pointer,
        });
      }
    }
    node.risk_quotes.forEach(walk);
  };
  walk(root);
  return errors;
}
