import type { SeedContext } from '@atrium/sdk/server';
import { alert, item, quote, risk, statusHistory, underwritingIssue } from './tables.js';

/**
 * Demo quotes of the demo agent (Alex, CON-AGENT-ALEX) and agency (Harbour, CON-AGENCY-HARBOUR) on
 * both demo lines, one in each status, some with open underwriting issues. The seed has no services,
 * so the product version is pinned at the quote's first rating (like every quote's), and the rated
 * ones carry the premium their demo scenario rates to.
 */
type Risk = {
  type: string;
  answers: Record<string, unknown>;
  items?: { name: string; limit?: string; deductible?: string }[];
  children?: Risk[];
};

const home = (roofYear: number, articles: Risk[] = []): Risk => ({
  type: 'home',
  answers: {
    zip: '78701',
    construction: 'masonry',
    protection_class: 6,
    year_built: 1998,
    roof_year: roofYear,
    policy_year: 2026,
  },
  items: [
    { name: 'dwelling', limit: '250000', deductible: '1000' },
    { name: 'personal_liability', limit: '300000' },
  ],
  children: articles,
});

const auto = (driverAge: number, vehicles = 1): Risk => ({
  type: 'policy',
  answers: { policy_year: 2026, multi_policy: false, paid_in_full: false },
  children: [
    ...Array.from({ length: vehicles }, (_, i) => ({
      type: 'vehicle',
      answers: {
        vin: `1HGCV1F34LA00000${i + 1}`,
        model_year: 2021,
        symbol: 14,
        usage: 'commute',
        garaging_zip: '78701',
      },
      items: [
        { name: 'bodily_injury', limit: '100000' },
        { name: 'property_damage', limit: '50000' },
        { name: 'collision', deductible: '500' },
        { name: 'comprehensive', deductible: '500' },
      ],
    })),
    {
      type: 'driver',
      answers: { first_name: 'Sam', last_name: 'Rivera', age: driverAge, violations: 0, at_fault_accidents: 0 },
    },
  ],
});

interface DemoQuote {
  number: string;
  product: 'homeowners' | 'personal_auto';
  insured: string;
  status: 'In Progress' | 'In Review' | 'Approved' | 'Declined' | 'Abandoned';
  premium: string | null;
  agent: string | null;
  risk: Risk;
  issues?: {
    code: string;
    severity: string;
    blocking: string;
    message: string;
    status: 'open' | 'approved' | 'rejected';
  }[];
}

const ROOF = {
  code: 'HO-ROOF',
  severity: 'refer',
  blocking: 'bind',
  message: 'Roofs older than 25 years need underwriter review.',
};
const YOUNG = {
  code: 'PA-YOUNG',
  severity: 'refer',
  blocking: 'bind',
  message: 'A driver under 21 needs underwriter review.',
};
const FLEET = {
  code: 'PA-FLEET',
  severity: 'decline',
  blocking: 'submit',
  message: 'Five or more vehicles is a fleet; quote it as commercial auto.',
};

export const DEMO_QUOTES: DemoQuote[] = [
  {
    number: 'Q-900001',
    product: 'homeowners',
    insured: 'Avery Castillo',
    status: 'In Progress',
    premium: null,
    agent: 'CON-AGENT-ALEX',
    risk: home(2014),
  },
  {
    number: 'Q-900002',
    product: 'homeowners',
    insured: 'Jordan Whitfield',
    status: 'In Review',
    premium: '1912.40',
    agent: 'CON-AGENT-ALEX',
    risk: home(1992),
    issues: [{ ...ROOF, status: 'open' }],
  },
  {
    number: 'Q-900003',
    product: 'homeowners',
    insured: 'Morgan Lee',
    status: 'Approved',
    premium: '1688.00',
    agent: 'CON-AGENT-ALEX',
    risk: home(2016),
  },
  {
    number: 'Q-900004',
    product: 'homeowners',
    insured: 'Riley Osei',
    status: 'Abandoned',
    premium: null,
    agent: 'CON-AGENT-BLAKE',
    risk: home(2010),
  },
  {
    number: 'Q-900005',
    product: 'personal_auto',
    insured: 'Casey Novak',
    status: 'In Progress',
    premium: null,
    agent: 'CON-AGENT-ALEX',
    risk: auto(44),
  },
  {
    number: 'Q-900006',
    product: 'personal_auto',
    insured: 'Taylor Brooks',
    status: 'In Review',
    premium: '2068.32',
    agent: 'CON-AGENT-ALEX',
    risk: auto(19),
    issues: [{ ...YOUNG, status: 'open' }],
  },
  {
    number: 'Q-900007',
    product: 'personal_auto',
    insured: 'Drew Park',
    status: 'Approved',
    premium: '1204.16',
    agent: null,
    risk: auto(38),
  },
  {
    number: 'Q-900008',
    product: 'personal_auto',
    insured: 'Quinn Harper',
    status: 'Declined',
    premium: '6480.00',
    agent: 'CON-AGENT-ALEX',
    risk: auto(52, 5),
    issues: [{ ...FLEET, status: 'rejected' }],
  },
];

const ALERTS: Record<string, { kind: string; message: string }> = {
  'In Review': { kind: 'review', message: 'This quote is pending underwriter review.' },
  Approved: { kind: 'approved', message: 'Congratulations! This quote is approved and ready to bind.' },
  Declined: { kind: 'declined', message: 'This quote was declined by underwriting.' },
};

export async function seedQuotes({ tx }: SeedContext): Promise<void> {
  for (const demo of DEMO_QUOTES) {
    const rated = demo.premium !== null;
    const [row] = await tx
      .insert(quote)
      .values({
        number: demo.number,
        productName: demo.product,
        productLabel: demo.product === 'homeowners' ? 'Homeowners' : 'Personal Auto',
        productVersionId: null,
        status: demo.status,
        effectiveDate: '2026-03-01',
        expirationDate: '2027-03-01',
        state: 'TX',
        premiumTerm: demo.premium,
        premiumProRata: demo.premium,
        lastRatedAt: rated ? new Date('2026-02-20T15:00:00Z') : null,
        namedInsureds: [{ contactId: null, name: demo.insured }],
        agentContactId: demo.agent,
        agencyContactId: 'CON-AGENCY-HARBOUR',
        owner: demo.agent === 'CON-AGENT-ALEX' ? 'agent@agency.test' : 'agency@agency.test',
        createdBy: demo.agent === 'CON-AGENT-ALEX' ? 'agent@agency.test' : 'agency@agency.test',
      })
      .returning({ id: quote.id });
    const quoteId = row!.id;
    const insertRisk = async (r: Risk, parentId: number | null) => {
      const [created] = await tx
        .insert(risk)
        .values({ quoteId, parentId, riskType: r.type, answers: r.answers })
        .returning({ id: risk.id });
      if (r.items?.length) {
        await tx.insert(item).values(
          r.items.map((i) => ({
            riskId: created!.id,
            name: i.name,
            limit: i.limit ?? null,
            deductible: i.deductible ?? null,
          })),
        );
      }
      for (const child of r.children ?? []) await insertRisk(child, created!.id);
    };
    await insertRisk(demo.risk, null);
    await tx
      .insert(statusHistory)
      .values({ quoteId, toStatus: 'In Progress', trigger: 'create', changedBy: 'agent@agency.test' });
    if (demo.status !== 'In Progress') {
      await tx.insert(statusHistory).values({
        quoteId,
        fromStatus: 'In Progress',
        toStatus: demo.status,
        trigger: demo.status === 'Abandoned' ? 'abandon' : 'submit',
        changedBy: 'agent@agency.test',
      });
    }
    for (const issue of demo.issues ?? []) {
      await tx.insert(underwritingIssue).values({
        quoteId,
        ...issue,
        rule: issue.code,
        risk: '',
        authority: 'Underwriter',
        ...(issue.status !== 'open'
          ? {
              resolvedBy: 'underwriter@atrium.test',
              resolvedAt: new Date('2026-02-21T10:00:00Z'),
              reason: 'Outside appetite.',
            }
          : {}),
      });
    }
    const alertRow = ALERTS[demo.status];
    if (alertRow) await tx.insert(alert).values({ quoteId, ...alertRow });
  }
}
