import DecimalJs from 'decimal.js';
import type { Principal, ServerPluginContext } from '@atrium/sdk/server';
import { CLAIMS_REPORTING, type ClaimReportFilter, type ClaimReportRow } from '@atrium/plugin-claims/reporting';
import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import { POLICY_REPORTING, PolicyReportingRefused, type PremiumReportRow } from '@atrium/plugin-policies/reporting';
import {
  CLAIM_STATUS_LABELS,
  reportTitle,
  type ReportColumn,
  type ReportFilters,
  type ReportId,
  type ReportResult,
} from '../shared/report-definitions.js';

/**
 * Each report computed from the claims and policies reporting services (reports never reads their
 * tables), in the scope of the principal the run belongs to. Money is summed with decimal.js and
 * answered as decimal text. `progress(percent)` is written to the run as the job goes.
 */

const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
type Dec = InstanceType<typeof Decimal>;
const money = (value: DecimalJs.Value) => new Decimal(value).toDecimalPlaces(2).toFixed(2);
const zero = () => new Decimal(0);

/** A result larger than this is refused: the filters must be narrowed (the page says so). */
export const MAX_RESULT_ROWS = 100_000;
const PAGE = 2000;
export class ReportTooLarge extends Error {
  constructor() {
    super(
      `The report has more than ${MAX_RESULT_ROWS.toLocaleString('en-US')} rows. Narrow the filters and run it again.`,
    );
  }
}

export interface BuildContext {
  context: ServerPluginContext;
  principal: Principal;
  progress: (percent: number) => Promise<void>;
  today: string;
}

const col = (key: string, label: string, kind: ReportColumn['kind'] = 'text'): ReportColumn => ({ key, label, kind });

const CLAIM_COLUMNS: ReportColumn[] = [
  col('claim_number', 'Claim'),
  col('status', 'Status'),
  col('policy_number', 'Policy'),
  col('product', 'Product'),
  col('date_of_loss', 'Date of loss', 'date'),
  col('reported_date', 'Reported', 'date'),
  col('loss_state', 'Loss state'),
  col('reserve_outstanding', 'Reserve outstanding', 'money'),
  col('paid', 'Paid', 'money'),
  col('recovered', 'Recovered', 'money'),
  col('total_incurred', 'Total incurred', 'money'),
];

const claimRow = (row: ClaimReportRow) => ({
  claim_number: row.number,
  status: CLAIM_STATUS_LABELS[row.status] ?? row.status,
  policy_number: row.policyNumber,
  product: row.product,
  date_of_loss: row.dateOfLoss,
  reported_date: row.reportedDate,
  loss_state: row.lossState,
  reserve_outstanding: row.reserveOutstanding,
  paid: row.paid,
  recovered: row.recovered,
  total_incurred: row.totalIncurred,
});

/** Sums of money columns over rows, as decimal text. */
function totalsOf(rows: Record<string, unknown>[], columns: ReportColumn[]): Record<string, string | number | null> {
  const totals: Record<string, string | number | null> = {};
  for (const column of columns) {
    if (column.kind === 'money') {
      totals[column.key] = money(rows.reduce<Dec>((sum, row) => sum.plus((row[column.key] as string) ?? 0), zero()));
    } else if (column.kind === 'integer') {
      totals[column.key] = rows.reduce<number>((sum, row) => sum + Number(row[column.key] ?? 0), 0);
    }
  }
  return totals;
}

/** Every claim the filter matches in the caller's scope, page by page (keyset on id), with progress. */
async function eachClaimPage(
  build: BuildContext,
  filter: ClaimReportFilter,
  span: [number, number],
  onPage: (rows: ClaimReportRow[]) => void,
): Promise<number> {
  const claims = build.context.service(CLAIMS_REPORTING);
  const db = build.context.db;
  const total = await claims.countClaims(db, build.principal, filter);
  let seen = 0;
  let afterId = 0;
  for (;;) {
    const page = await claims.claimRows(db, build.principal, filter, { afterId, limit: PAGE });
    onPage(page);
    seen += page.length;
    if (total > 0) await build.progress(span[0] + ((span[1] - span[0]) * Math.min(seen, total)) / total);
    if (page.length < PAGE) break;
    afterId = page.at(-1)!.claimId;
  }
  return total;
}

async function collectClaims(build: BuildContext, filter: ClaimReportFilter, span: [number, number]) {
  const claims = build.context.service(CLAIMS_REPORTING);
  if ((await claims.countClaims(build.context.db, build.principal, filter)) > MAX_RESULT_ROWS)
    throw new ReportTooLarge();
  const rows: ClaimReportRow[] = [];
  await eachClaimPage(build, filter, span, (page) => rows.push(...page));
  return rows;
}

const ratio = (incurred: Dec, earned: Dec) =>
  earned.isZero() ? null : incurred.dividedBy(earned).times(100).toDecimalPlaces(1).toFixed(1);

async function contactNames(build: BuildContext, ids: string[]): Promise<Map<string, string>> {
  const directory = build.context.optionalService(CONTACT_DIRECTORY);
  const wanted = [...new Set(ids.filter(Boolean))];
  if (!directory || wanted.length === 0) return new Map();
  const found = await directory.findContacts(build.context.db, wanted);
  return new Map(found.map((c) => [c.id, c.name]));
}

const monthOf = (day: string) => day.slice(0, 7);
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

type Builder<R extends ReportId> = (build: BuildContext, filters: ReportFilters<R>) => Promise<ReportResult>;

const claimsRegister: Builder<'claims-register'> = async (build, filters) => {
  const rows = (
    await collectClaims(
      build,
      { lossFrom: filters.lossFrom, lossTo: filters.lossTo, statuses: filters.status ? [filters.status] : undefined },
      [5, 90],
    )
  ).map(claimRow);
  const byStatus = new Map<string, number>();
  for (const row of rows) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
  const totals = totalsOf(rows, CLAIM_COLUMNS);
  return {
    title: reportTitle('claims-register'),
    columns: CLAIM_COLUMNS,
    rows,
    totals,
    summary: [
      { label: 'Claims', value: String(rows.length), kind: 'integer' },
      { label: 'Total incurred', value: String(totals.total_incurred), kind: 'money' },
    ],
    chart: {
      title: 'Claims by status',
      categoryKey: 'status',
      series: [{ key: 'claims', label: 'Claims' }],
      data: [...byStatus].map(([status, claims]) => ({ status, claims })),
    },
  };
};

const lossRunByPolicy: Builder<'loss-run-policy'> = async (build, filters) => {
  const rows = (await collectClaims(build, { policyNumbers: [filters.policyNumber] }, [5, 70])).map(claimRow);
  // A caller who may read the claims but not the policies gets the loss run without premium.
  const premiums = await build.context
    .service(POLICY_REPORTING)
    .premium(build.context.db, build.principal, {
      from: '1900-01-01',
      to: build.today,
      policyNumbers: [filters.policyNumber],
    })
    .catch((error: unknown) => (error instanceof PolicyReportingRefused ? [] : Promise.reject(error)));
  await build.progress(90);
  const written = premiums.reduce<Dec>((sum, p) => sum.plus(p.writtenPremium), zero());
  const earned = premiums.reduce<Dec>((sum, p) => sum.plus(p.earnedPremium), zero());
  const totals = totalsOf(rows, CLAIM_COLUMNS);
  const lossRatio = ratio(new Decimal(String(totals.total_incurred)), earned);
  return {
    title: `${reportTitle('loss-run-policy')}: ${filters.policyNumber}`,
    columns: CLAIM_COLUMNS,
    rows,
    totals,
    summary: [
      { label: 'Claims', value: String(rows.length), kind: 'integer' },
      { label: 'Paid', value: String(totals.paid), kind: 'money' },
      { label: 'Reserve outstanding', value: String(totals.reserve_outstanding), kind: 'money' },
      { label: 'Total incurred', value: String(totals.total_incurred), kind: 'money' },
      ...(premiums.length
        ? [
            { label: 'Written premium', value: money(written), kind: 'money' as const },
            { label: 'Earned premium', value: money(earned), kind: 'money' as const },
            ...(lossRatio ? [{ label: 'Loss ratio', value: lossRatio, kind: 'percent' as const }] : []),
          ]
        : []),
    ],
    chart: {
      title: 'Incurred by claim',
      categoryKey: 'claim_number',
      series: [
        { key: 'paid', label: 'Paid' },
        { key: 'reserve_outstanding', label: 'Reserve outstanding' },
      ],
      data: rows.map((r) => ({
        claim_number: r.claim_number,
        paid: Number(r.paid),
        reserve_outstanding: Number(r.reserve_outstanding),
      })),
    },
  };
};

const lossRunByPeriod: Builder<'loss-run-period'> = async (build, filters) => {
  const months = new Map<string, { claims: number; paid: Dec; reserve: Dec; recovered: Dec; incurred: Dec }>();
  // Every month of the period appears, also those without losses.
  for (let m = monthOf(filters.from); m <= monthOf(filters.to);) {
    months.set(m, { claims: 0, paid: zero(), reserve: zero(), recovered: zero(), incurred: zero() });
    const [y, mo] = m.split('-').map(Number) as [number, number];
    m = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
    if (months.size > 600) break;
  }
  await build.progress(10);
  // Summed in the database by claims (a million claims in seconds, not paged through here).
  const losses = await build.context
    .service(CLAIMS_REPORTING)
    .monthlyLosses(build.context.db, build.principal, { lossFrom: filters.from, lossTo: filters.to });
  await build.progress(90);
  for (const row of losses) {
    const bucket = months.get(row.month);
    if (!bucket) continue;
    bucket.claims += row.claims;
    bucket.paid = bucket.paid.plus(row.paid);
    bucket.reserve = bucket.reserve.plus(row.reserveOutstanding);
    bucket.recovered = bucket.recovered.plus(row.recovered);
    bucket.incurred = bucket.incurred.plus(row.totalIncurred);
  }
  const columns = [
    col('month', 'Month of loss'),
    col('claims', 'Claims', 'integer'),
    col('paid', 'Paid', 'money'),
    col('reserve_outstanding', 'Reserve outstanding', 'money'),
    col('recovered', 'Recovered', 'money'),
    col('total_incurred', 'Total incurred', 'money'),
  ];
  const rows = [...months].map(([month, b]) => ({
    month: monthLabel(month),
    claims: b.claims,
    paid: money(b.paid),
    reserve_outstanding: money(b.reserve),
    recovered: money(b.recovered),
    total_incurred: money(b.incurred),
  }));
  const totals = totalsOf(rows, columns);
  return {
    title: reportTitle('loss-run-period'),
    columns,
    rows,
    totals,
    summary: [
      { label: 'Claims', value: String(totals.claims), kind: 'integer' },
      { label: 'Total incurred', value: String(totals.total_incurred), kind: 'money' },
    ],
    chart: {
      title: 'Incurred by month of loss',
      categoryKey: 'month',
      series: [
        { key: 'paid', label: 'Paid' },
        { key: 'reserve_outstanding', label: 'Reserve outstanding' },
      ],
      data: rows.map((r) => ({
        month: r.month,
        paid: Number(r.paid),
        reserve_outstanding: Number(r.reserve_outstanding),
      })),
    },
  };
};

const CATEGORY_LABELS: Record<string, string> = {
  indemnity: 'Indemnity',
  expense: 'Expense',
  legal: 'Legal',
  medical: 'Medical',
};

const reservesAndPayments: Builder<'reserves-payments'> = async (build, filters) => {
  await build.progress(10);
  const movements = await build.context
    .service(CLAIMS_REPORTING)
    .movements(build.context.db, build.principal, { from: filters.from, to: filters.to });
  if (movements.length > MAX_RESULT_ROWS) throw new ReportTooLarge();
  await build.progress(80);
  const columns = [
    col('claim_number', 'Claim'),
    col('policy_number', 'Policy'),
    col('reserve_category', 'Reserve category'),
    col('reserve_change', 'Reserve change', 'money'),
    col('paid', 'Paid', 'money'),
    col('recovered', 'Recovered', 'money'),
  ];
  const rows = movements.map((m) => ({
    claim_number: m.number,
    policy_number: m.policyNumber,
    reserve_category: CATEGORY_LABELS[m.reserveCategory] ?? m.reserveCategory,
    reserve_change: money(m.reserveChange),
    paid: money(m.paid),
    recovered: money(m.recovered),
  }));
  const byCategory = new Map<string, { reserve: Dec; paid: Dec }>();
  for (const row of rows) {
    const bucket = byCategory.get(row.reserve_category) ?? { reserve: zero(), paid: zero() };
    bucket.reserve = bucket.reserve.plus(row.reserve_change);
    bucket.paid = bucket.paid.plus(row.paid);
    byCategory.set(row.reserve_category, bucket);
  }
  const totals = totalsOf(rows, columns);
  return {
    title: reportTitle('reserves-payments'),
    columns,
    rows,
    totals,
    summary: [
      { label: 'Reserve change', value: String(totals.reserve_change), kind: 'money' },
      { label: 'Paid', value: String(totals.paid), kind: 'money' },
      { label: 'Recovered', value: String(totals.recovered), kind: 'money' },
    ],
    chart: {
      title: 'By reserve category',
      categoryKey: 'category',
      series: [
        { key: 'reserve_change', label: 'Reserve change' },
        { key: 'paid', label: 'Paid' },
      ],
      data: [...byCategory].map(([category, b]) => ({
        category,
        reserve_change: Number(money(b.reserve)),
        paid: Number(money(b.paid)),
      })),
    },
  };
};

async function premiumRows(build: BuildContext, filters: { from: string; to: string; product?: string }) {
  await build.progress(10);
  const rows = await build.context.service(POLICY_REPORTING).premium(build.context.db, build.principal, {
    from: filters.from,
    to: filters.to,
    productSlug: filters.product,
  });
  if (rows.length > MAX_RESULT_ROWS) throw new ReportTooLarge();
  await build.progress(50);
  return rows;
}

const POLICY_STATUS_LABELS: Record<string, string> = {};
const policyStatus = (status: string) => POLICY_STATUS_LABELS[status] ?? status;

const premium: Builder<'premium'> = async (build, filters) => {
  const terms = await premiumRows(build, filters);
  const columns = [
    col('policy_number', 'Policy'),
    col('named_insured', 'Named insured'),
    col('product', 'Product'),
    col('status', 'Status'),
    col('term_effective', 'Term effective', 'date'),
    col('term_expiration', 'Term expiration', 'date'),
    col('written_premium', 'Written premium', 'money'),
    col('earned_premium', 'Earned premium', 'money'),
  ];
  const rows = terms.map((t) => ({
    policy_number: t.policyNumber,
    named_insured: t.namedInsured,
    product: t.product,
    status: policyStatus(t.status),
    term_effective: t.termEffectiveDate,
    term_expiration: t.termExpirationDate,
    written_premium: t.writtenPremium,
    earned_premium: t.earnedPremium,
  }));
  const byProduct = new Map<string, { written: Dec; earned: Dec }>();
  for (const t of terms) {
    const bucket = byProduct.get(t.product) ?? { written: zero(), earned: zero() };
    bucket.written = bucket.written.plus(t.writtenPremium);
    bucket.earned = bucket.earned.plus(t.earnedPremium);
    byProduct.set(t.product, bucket);
  }
  const totals = totalsOf(rows, columns);
  return {
    title: reportTitle('premium'),
    columns,
    rows,
    totals,
    summary: [
      { label: 'Policy terms', value: String(rows.length), kind: 'integer' },
      { label: 'Written premium', value: String(totals.written_premium), kind: 'money' },
      { label: 'Earned premium', value: String(totals.earned_premium), kind: 'money' },
    ],
    chart: {
      title: 'Written and earned premium by product',
      categoryKey: 'product',
      series: [
        { key: 'written', label: 'Written premium' },
        { key: 'earned', label: 'Earned premium' },
      ],
      data: [...byProduct].map(([product, b]) => ({
        product,
        written: Number(money(b.written)),
        earned: Number(money(b.earned)),
      })),
    },
  };
};

/** Losses of the period's claims by policy number: count, paid, outstanding, incurred. */
async function lossesByPolicy(build: BuildContext, filters: { from: string; to: string }, span: [number, number]) {
  const byPolicy = new Map<string, { claims: number; paid: Dec; reserve: Dec; incurred: Dec }>();
  const byAgent = new Map<string, { claims: number; incurred: Dec }>();
  await eachClaimPage(build, { lossFrom: filters.from, lossTo: filters.to }, span, (page) => {
    for (const row of page) {
      const key = row.policyNumber ?? '';
      const bucket = byPolicy.get(key) ?? { claims: 0, paid: zero(), reserve: zero(), incurred: zero() };
      bucket.claims += 1;
      bucket.paid = bucket.paid.plus(row.paid);
      bucket.reserve = bucket.reserve.plus(row.reserveOutstanding);
      bucket.incurred = bucket.incurred.plus(row.totalIncurred);
      byPolicy.set(key, bucket);
      const agent = byAgent.get(row.agentContactId ?? '') ?? { claims: 0, incurred: zero() };
      agent.claims += 1;
      agent.incurred = agent.incurred.plus(row.totalIncurred);
      byAgent.set(row.agentContactId ?? '', agent);
    }
  });
  return { byPolicy, byAgent };
}

const agentProduction: Builder<'agent-production'> = async (build, filters) => {
  const terms = await premiumRows(build, filters);
  const { byAgent: losses } = await lossesByPolicy(build, filters, [50, 90]);
  const agents = new Map<
    string,
    { agency: string | null; terms: number; written: Dec; earned: Dec; commission: Dec }
  >();
  for (const t of terms) {
    const key = t.agentContactId ?? '';
    const bucket = agents.get(key) ?? {
      agency: t.agencyContactId,
      terms: 0,
      written: zero(),
      earned: zero(),
      commission: zero(),
    };
    bucket.terms += 1;
    bucket.written = bucket.written.plus(t.writtenPremium);
    bucket.earned = bucket.earned.plus(t.earnedPremium);
    bucket.commission = bucket.commission.plus(t.commission);
    agents.set(key, bucket);
  }
  for (const key of losses.keys()) {
    if (!agents.has(key))
      agents.set(key, { agency: null, terms: 0, written: zero(), earned: zero(), commission: zero() });
  }
  const names = await contactNames(build, [...agents.keys(), ...[...agents.values()].map((a) => a.agency ?? '')]);
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? 'Unknown contact') : 'No agent');
  const columns = [
    col('agent', 'Agent'),
    col('agency', 'Agency'),
    col('policy_terms', 'Policy terms', 'integer'),
    col('written_premium', 'Written premium', 'money'),
    col('earned_premium', 'Earned premium', 'money'),
    col('commission', 'Commission', 'money'),
    col('claims', 'Claims', 'integer'),
    col('total_incurred', 'Total incurred', 'money'),
    col('loss_ratio', 'Loss ratio (%)', 'percent'),
  ];
  const rows = [...agents]
    .map(([agent, b]) => {
      const loss = losses.get(agent) ?? { claims: 0, incurred: zero() };
      return {
        agent: nameOf(agent || null),
        agency: b.agency ? nameOf(b.agency) : null,
        policy_terms: b.terms,
        written_premium: money(b.written),
        earned_premium: money(b.earned),
        commission: money(b.commission),
        claims: loss.claims,
        total_incurred: money(loss.incurred),
        loss_ratio: ratio(loss.incurred, b.earned),
      };
    })
    .sort((a, b) => a.agent.localeCompare(b.agent));
  const totals = totalsOf(rows, columns);
  return {
    title: reportTitle('agent-production'),
    columns,
    rows,
    totals,
    summary: [
      { label: 'Written premium', value: String(totals.written_premium), kind: 'money' },
      { label: 'Commission', value: String(totals.commission), kind: 'money' },
      { label: 'Total incurred', value: String(totals.total_incurred), kind: 'money' },
    ],
    chart: {
      title: 'Written premium and incurred by agent',
      categoryKey: 'agent',
      series: [
        { key: 'written', label: 'Written premium' },
        { key: 'incurred', label: 'Total incurred' },
      ],
      data: rows.map((r) => ({
        agent: r.agent,
        written: Number(r.written_premium),
        incurred: Number(r.total_incurred),
      })),
    },
  };
};

const bordereaux: Builder<'bordereaux'> = async (build, filters) => {
  const terms = await premiumRows(build, filters);
  const { byPolicy } = await lossesByPolicy(build, filters, [50, 90]);
  const columns = [
    col('policy_number', 'Policy'),
    col('named_insured', 'Named insured'),
    col('product', 'Product'),
    col('term_effective', 'Term effective', 'date'),
    col('term_expiration', 'Term expiration', 'date'),
    col('written_premium', 'Written premium', 'money'),
    col('commission', 'Commission', 'money'),
    col('net_premium', 'Net premium', 'money'),
    col('claims', 'Claims', 'integer'),
    col('paid', 'Paid', 'money'),
    col('reserve_outstanding', 'Reserve outstanding', 'money'),
  ];
  // A policy's losses go on its latest term in the period.
  const lastTerm = new Map<string, PremiumReportRow>();
  for (const t of terms) lastTerm.set(t.policyNumber, t);
  const rows = terms.map((t) => {
    const loss = lastTerm.get(t.policyNumber) === t ? byPolicy.get(t.policyNumber) : undefined;
    return {
      policy_number: t.policyNumber,
      named_insured: t.namedInsured,
      product: t.product,
      term_effective: t.termEffectiveDate,
      term_expiration: t.termExpirationDate,
      written_premium: t.writtenPremium,
      commission: t.commission,
      net_premium: money(new Decimal(t.writtenPremium).minus(t.commission)),
      claims: loss?.claims ?? 0,
      paid: money(loss?.paid ?? 0),
      reserve_outstanding: money(loss?.reserve ?? 0),
    };
  });
  const totals = totalsOf(rows, columns);
  const byProduct = new Map<string, Dec>();
  for (const row of rows) byProduct.set(row.product, (byProduct.get(row.product) ?? zero()).plus(row.net_premium));
  return {
    title: reportTitle('bordereaux'),
    columns,
    rows,
    totals,
    summary: [
      { label: 'Written premium', value: String(totals.written_premium), kind: 'money' },
      { label: 'Net premium', value: String(totals.net_premium), kind: 'money' },
      { label: 'Claims', value: String(totals.claims), kind: 'integer' },
    ],
    chart: {
      title: 'Net premium by product',
      categoryKey: 'product',
      series: [{ key: 'net', label: 'Net premium' }],
      data: [...byProduct].map(([product, net]) => ({ product, net: Number(money(net)) })),
    },
  };
};

const BUILDERS: { [R in ReportId]: Builder<R> } = {
  'claims-register': claimsRegister,
  'loss-run-policy': lossRunByPolicy,
  'loss-run-period': lossRunByPeriod,
  'reserves-payments': reservesAndPayments,
  premium,
  'agent-production': agentProduction,
  bordereaux,
};

export function buildReport(report: ReportId, build: BuildContext, filters: ReportFilters): Promise<ReportResult> {
  return (BUILDERS[report] as Builder<ReportId>)(build, filters as never);
}
