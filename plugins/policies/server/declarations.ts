import { CONTACT_DIRECTORY } from '@atrium/plugin-contacts/directory';
import {
  DOCUMENT_DECLARATIONS,
  type DeclarationsRequest,
  type DeclarationsSource,
} from '@atrium/plugin-documents/services';
import { and, eq } from 'drizzle-orm';
import type { Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { coveragesOf, productTitle } from './services.js';
import { policy, policyRevision, policyTerm } from './tables.js';

/**
 * A rating item's name in words for the printed page (`bodily_injury` → `Bodily injury`): products
 * name their items as identifiers and carry no label for them, and a dec page must not print those.
 */
export const coverageTitle = (name: string) =>
  /^[a-z0-9_]+$/.test(name) ? name.replace(/_+/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) : name;

type RevisionRow = {
  revision: typeof policyRevision.$inferSelect;
  policy: typeof policy.$inferSelect;
  term: typeof policyTerm.$inferSelect;
};

/**
 * A revision's declarations request in the documents module's terms: the line, state, dates and the
 * policy's data in the data-point catalogue's shape (policy.*, agency.*); money stays a decimal
 * string. The agency's name is its contact's (contacts' directory), not the agent's, and the
 * insured's address is the named insured contact's first address there.
 */
export async function declarationsRequestOf(
  context: Pick<ServerPluginContext, 'optionalService'>,
  tx: Queryable,
  row: RevisionRow,
  username: string,
): Promise<DeclarationsRequest> {
  const { revision, policy: p, term } = row;
  const insured = revision.contacts.find((c) => c.namedInsured);
  const directory = context.optionalService(CONTACT_DIRECTORY);
  // The agency and the named insured as contacts' directory knows them (one call): the agency's
  // name, and the insured's address (its first, the one contacts lists first) for the dec page.
  const wanted = [p.agencyContactId, insured?.contactId].filter((id): id is string => Boolean(id));
  const known = directory && wanted.length > 0 ? await directory.findContacts(tx, wanted) : [];
  const agency = known.find((c) => c.id === p.agencyContactId);
  const insuredContact = insured?.contactId ? known.find((c) => c.id === insured.contactId) : undefined;
  const data = {
    policy: {
      number: p.number,
      line: productTitle(p.productSlug),
      term_start: term.effectiveDate,
      term_end: term.expirationDate,
      premium: revision.annualPremium,
      // No contact, or one without an address: the dec page prints none rather than a wrong one.
      insured: { name: insured?.name ?? p.namedInsuredName, address: insuredContact?.addresses[0] ?? '' },
      coverages: coveragesOf(revision.worksheet).map((c, i) => ({
        code: String(i + 1),
        name: coverageTitle(c.name),
        limit: c.limit ?? '',
        premium: c.premium ?? '',
      })),
    },
    agency: { name: agency?.name ?? '' },
  };
  return {
    key: String(revision.id),
    line: p.productSlug,
    state: p.state,
    documentDate: revision.revisionDate,
    renewal: term.number > 1,
    transaction: transactionOf(revision, term),
    hasMortgagee: revision.contacts.some((c) => c.additionalInterest && /mortgagee/i.test(c.interest ?? '')),
    data,
    record: { id: String(p.id), agentContactId: p.agentContactId, agencyContactId: p.agencyContactId },
    createdBy: username,
  };
}

/**
 * What a revision is, for form-inclusion rules (`transaction_type()`): the first revision of the
 * policy is new business, a later term's revision on the term's first day its renewal, any other
 * revision a change.
 */
export function transactionOf(
  revision: RevisionRow['revision'],
  term: RevisionRow['term'],
): 'new_business' | 'change' | 'renewal' {
  if (revision.number === 1) return 'new_business';
  if (term.number > 1 && revision.revisionDate === term.effectiveDate) return 'renewal';
  return 'change';
}

/**
 * A revision's declarations, asked of the documents module's typed service (it owns the templates,
 * forms and production documents; docs/documents.md, "Declarations"). Without the documents module,
 * or when it has no dec page for the line, the answer says why and has no file.
 */
export async function declarationsOf(
  context: Pick<ServerPluginContext, 'optionalService'>,
  tx: Queryable,
  row: RevisionRow,
  username: string,
) {
  const documents = context.optionalService(DOCUMENT_DECLARATIONS);
  if (!documents) return { fileId: null, detail: 'No declaration has been produced for this revision.' } as const;
  return documents.declarationsFor(tx, await declarationsRequestOf(context, tx, row, username));
}

/**
 * POLICY_DECLARATIONS_SOURCE: when a policy is issued the documents module produces its declarations
 * (from the `policies.policy.issued` event) and asks here for the first revision's request.
 */
export const declarationsSource = (context: ServerPluginContext): DeclarationsSource => ({
  async declarationsRequestFor(tx, { policyId, createdBy }) {
    if (!/^\d+$/.test(policyId)) return null;
    const [row] = await tx
      .select({ revision: policyRevision, policy, term: policyTerm })
      .from(policyRevision)
      .innerJoin(policy, eq(policy.id, policyRevision.policyId))
      .innerJoin(policyTerm, eq(policyTerm.id, policyRevision.termId))
      .where(and(eq(policyRevision.policyId, Number(policyId)), eq(policyRevision.number, 1)));
    return row ? declarationsRequestOf(context, tx, row, createdBy) : null;
  },
});
