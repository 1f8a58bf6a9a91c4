import { DOCUMENT_DECLARATIONS } from '@atrium/plugin-documents/services';
import type { Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { coveragesOf, productTitle } from './services.js';
import type { policy, policyRevision, policyTerm } from './tables.js';

/**
 * A revision's declarations, asked of the documents module's typed service (it owns the templates,
 * forms and production documents; docs/documents.md, "Declarations"). Without the documents module,
 * or when it has no dec page for the line, the answer says why and has no file.
 */
export async function declarationsOf(
  context: Pick<ServerPluginContext, 'optionalService'>,
  tx: Queryable,
  row: {
    revision: typeof policyRevision.$inferSelect;
    policy: typeof policy.$inferSelect;
    term: typeof policyTerm.$inferSelect;
  },
  username: string,
) {
  const documents = context.optionalService(DOCUMENT_DECLARATIONS);
  if (!documents) return { fileId: null, detail: 'No declaration has been produced for this revision.' } as const;
  const { revision, policy: p, term } = row;
  const insured = revision.contacts.find((c) => c.namedInsured);
  const agent = revision.contacts.find((c) => c.agent);
  // The data-point catalogue's shape (policy.*, agency.*); money stays a decimal string.
  const data = {
    policy: {
      number: p.number,
      line: productTitle(p.productSlug),
      term_start: term.effectiveDate,
      term_end: term.expirationDate,
      premium: revision.annualPremium,
      insured: { name: insured?.name ?? p.namedInsuredName, address: '' },
      coverages: coveragesOf(revision.worksheet).map((c, i) => ({
        code: String(i + 1),
        name: c.name,
        limit: c.limit ?? '',
        premium: c.premium ?? '',
      })),
    },
    agency: { name: agent?.name ?? '' },
  };
  return documents.declarationsFor(tx, {
    key: String(revision.id),
    line: p.productSlug,
    state: p.state,
    documentDate: revision.revisionDate,
    renewal: term.number > 1,
    hasMortgagee: revision.contacts.some((c) => c.additionalInterest && /mortgagee/i.test(c.interest ?? '')),
    data,
    record: { id: String(p.id), agentContactId: p.agentContactId, agencyContactId: p.agencyContactId },
    createdBy: username,
  });
}
