import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { provideService, type Principal, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import type { FlowRiskType } from '../shared/flow.js';
import { QUOTE_LOOKUP, type QuoteDocumentSource, type QuoteLookup } from '../shared/quote-lookup.js';
import { flowOf, loadTree, versionInForce, type RiskNode } from './quote-service.js';
import { quoteScope } from './quote-access.js';
import { quote } from './tables.js';

/** `%`, `_` and `\` are literal in a search text. */
const likeText = (value: string) => `%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An answer as a document prints it: Yes/No for a boolean, the text of anything else; null when unanswered. */
function printable(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * The risk tree flattened root first, each risk with its answers under the product's field labels
 * (unanswered questions left out) and its coverages with their labels: the catalogue's `quote.risks`.
 */
function risksOf(root: RiskNode | null, types: FlowRiskType[]) {
  const out: { label: string; answers: { label: string; value: string }[]; coverages: unknown[] }[] = [];
  const counts = new Map<string, number>();
  const walk = (node: RiskNode, isRoot: boolean) => {
    const type = types.find((t) => t.name === node.risk_state.type.name);
    const name = type?.label ?? node.risk_state.type.name;
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    const answers = (type?.fields ?? []).flatMap((f) => {
      const value = printable(node.risk_state.field_answers[f.name]);
      return value === null ? [] : [{ label: f.label, value }];
    });
    const coverages = node.risk_state.items.map((i) => ({
      name: type?.items.find((t) => t.name === i.name)?.label ?? i.name,
      limit: i.limit,
      deductible: i.deductible,
    }));
    out.push({ label: isRoot ? name : `${name} ${n}`, answers, coverages });
    node.risk_quotes.forEach((child) => walk(child, false));
  };
  if (root) walk(root, true);
  return out;
}

/**
 * QUOTE_LOOKUP (shared/quote-lookup.ts): quotes for the documents module, within the caller's scope
 * (quoteScope: record conditions on `quote:quote` `read` and a producer's book).
 */
export const quoteLookupService = provideService(QUOTE_LOOKUP, (context: ServerPluginContext): QuoteLookup => ({
  async searchQuotes(tx, query, caller) {
    const scope = await quoteScope(context, caller.principal as Principal | undefined, 'read');
    const pattern = likeText(query.search);
    const rows = await tx
      .select({
        number: quote.number,
        productLabel: quote.productLabel,
        status: quote.status,
        namedInsureds: quote.namedInsureds,
      })
      .from(quote)
      .where(
        and(
          scope,
          query.search
            ? or(ilike(quote.number, pattern), sql`${quote.namedInsureds}::text ilike ${pattern}`)
            : undefined,
        ),
      )
      .orderBy(desc(quote.id))
      .limit(query.limit);
    return rows.map((r) => ({
      number: r.number,
      productLabel: r.productLabel,
      status: r.status,
      namedInsured: r.namedInsureds[0]?.name ?? null,
    }));
  },

  async quoteDocumentSource(tx: Queryable, number, caller): Promise<QuoteDocumentSource | null> {
    const scope = await quoteScope(context, caller.principal as Principal | undefined, 'read');
    const [row] = await tx
      .select()
      .from(quote)
      .where(and(eq(quote.number, number), scope))
      .limit(1);
    if (!row) return null;
    const version = await versionInForce(context, tx, row.productName, row.effectiveDate);
    const types = version ? flowOf(row.productName, version).risk_types : [];
    const insured = row.namedInsureds[0] ?? null;
    const ids = [insured?.contactId, row.agentContactId, row.agencyContactId].filter((id): id is string => !!id);
    const contacts = ids.length ? await context.service(CONTACT_DIRECTORY).findContacts(tx, ids) : [];
    const contact = (id: string | null | undefined) => (id ? contacts.find((c) => c.id === id) : undefined);
    const insuredEmail = contact(insured?.contactId)?.emails[0] ?? null;
    return {
      number: row.number,
      effectiveDate: row.effectiveDate,
      insuredEmail,
      agentContactId: row.agentContactId,
      agencyContactId: row.agencyContactId,
      data: {
        quote: {
          number: row.number,
          line: row.productLabel,
          status: row.status,
          effective_date: row.effectiveDate,
          expiration_date: row.expirationDate,
          state: row.state,
          // The term premium as rated (a decimal string); null until rated or after an edit made it stale.
          premium: row.ratingStale ? null : row.premiumTerm,
          insured: { name: insured?.name ?? null, email: insuredEmail },
          agent: { name: contact(row.agentContactId)?.name ?? null },
          risks: risksOf(await loadTree(tx, row.id), types),
        },
        agency: { name: contact(row.agencyContactId)?.name ?? null },
      },
    };
  },
}));
