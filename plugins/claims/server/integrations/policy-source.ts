import type { FastifyRequest } from 'fastify';
import { attributeError, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { POLICY_LOOKUP } from '@atrium/plugin-policies/services';
import { mayAccessRecord } from '../core/http-kit.js';
import { claimsPermission } from '../permissions.js';
import type { PolicyAtDate, PolicyLookup, PolicySummary } from '@atrium/plugin-policies/services';
import type { claim, ClaimPolicyCoverage } from '../core/tables.js';

/**
 * One source of policies (issue 21, item 7): the FNOL's policy search and a claim's policy read the
 * policies module's policies through its POLICY_LOOKUP service when the module is installed; the
 * claims module's own mock policies (Mock Policies Maintenance, the spec's admin screen for test
 * policies) follow them. A claim on a policies-module policy keeps `policy_source = 'policies'`,
 * the policy's and revision's ids as text (`policy_ref`, `policy_revision_ref`, never confused
 * with the mock ids in `policy_id` / `policy_revision_id`), and copies of the revision's coverages
 * and producers taken when the policy was chosen.
 */
export type PolicySource = 'policies' | 'mock';

/** A coverage item's name as a label: "personal_property" is "Personal property". */
const coverageLabel = (name: string) => {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The policies module's coverages in the shape claims keeps (and the mock revisions have). */
export function claimCoverages(atDate: PolicyAtDate): ClaimPolicyCoverage[] {
  return atDate.coverages.map((c) => ({
    coverage_type: c.name,
    label: coverageLabel(c.name),
    limit: c.limit ?? '',
    deductible: c.deductible ?? '',
    risk: '',
  }));
}

/** What the access evaluator sees of a policy: the producer attributes of a claim on it. */
export function policyAccessRecord(summary: PolicySummary): Record<string, unknown> {
  return {
    id: null,
    number: null,
    status: 'draft',
    product_id: null,
    primary_adjuster: null,
    created_by: null,
    loss_state: null,
    loss_city: null,
    loss_zip: null,
    agent_contact_id: summary.agentContactId,
    agency_contact_id: summary.agencyContactId,
  };
}

/** Said alike of a policy unknown, not in force that day or outside the caller's book: ids reveal nothing. */
export const notInForceMessage = (date: string) => `The policy was not in force on ${date}.`;

/**
 * The claim columns for a policies-module policy on a date (its revision in force then, its
 * coverages and producers). A policy unknown or not in force that day is a 400 on `policy_ref`.
 */
export async function policyColumnsAt(
  lookup: PolicyLookup | null,
  tx: Queryable,
  policyRef: string,
  date: string,
): Promise<Partial<typeof claim.$inferInsert>> {
  if (!lookup) throw attributeError('policy_ref', 'The policies module is not installed.');
  const atDate = await lookup.policyAtDate(tx, policyRef, date);
  if (!atDate) throw attributeError('policy_ref', notInForceMessage(date));
  return {
    policySource: 'policies',
    policyRef: atDate.policyId,
    policyRevisionRef: atDate.revisionId,
    policyRevisionNumber: atDate.revisionNumber,
    policyNumber: atDate.policyNumber,
    policyCoverages: claimCoverages(atDate),
    policyAgentContactId: atDate.agentContactId,
    policyAgencyContactId: atDate.agencyContactId,
    policyId: null,
    policyRevisionId: null,
  };
}

/** Choosing a mock policy (or none) clears a policies-module policy. */
export const mockPolicyColumns: Partial<typeof claim.$inferInsert> = {
  policySource: 'mock',
  policyRef: null,
  policyRevisionRef: null,
  policyRevisionNumber: null,
  policyCoverages: null,
  policyAgentContactId: null,
  policyAgencyContactId: null,
};

/**
 * Before a claim write that names a policies-module policy (outside its transaction: the evaluator
 * may read the database): the policy must be in force that day and in the caller's book, else the
 * same 400 on `policy_ref` as a policy not in force — an agent cannot file on, nor learn of, another
 * agency's policy.
 */
export async function requirePolicyInBook(
  context: ServerPluginContext,
  request: FastifyRequest,
  policyRef: string,
  date: string,
): Promise<void> {
  const lookup = context.optionalService(POLICY_LOOKUP);
  const atDate = lookup ? await lookup.policyAtDate(context.db, policyRef, date) : null;
  if (
    !atDate ||
    !(await mayAccessRecord(context, request, claimsPermission('claim', 'read'), policyAccessRecord(atDate)))
  ) {
    throw attributeError('policy_ref', notInForceMessage(date));
  }
}
