import { newObjectKey, type ObjectStorage, type Queryable, type SeedContext } from '@atrium/sdk/server';
import { POLICY_LOOKUP, type PolicyLookup } from '@atrium/plugin-policies/services';
import { ATTACHMENT_KEY_PREFIX } from '../integrations/attachments-routes.js';
import { nextClaimNumber } from '../core/claim-numbers.js';
import { seedLedger } from '../ledger/seed.js';
import { demoClaimPolicies, type DemoClaimPolicy } from './demo-claim-policies.js';
import {
  attachment,
  attachmentFolder,
  claim,
  claimAssignment,
  claimPeril,
  claimUser,
  coverage,
  exposure,
  location,
  lookup,
  mockPolicy,
  party,
  policyRevision,
  policyStatus,
  policyType,
  product,
  risk,
  riskType,
} from '../core/tables.js';
import { demoContactNumber } from '@atrium/plugin-contacts/demo';
import {
  DEMO_POLICY_COVERAGES,
  DEMO_PRODUCTS,
  DEMO_ZIPS,
  FIRST_NAMES,
  GLOBAL_LOOKUPS,
  LAST_NAMES,
  STATUS_REASONS,
} from './demo-lookups.js';

/**
 * The claims demo: lookups, a claims product per demo line (Homeowners, Personal Auto), policy types
 * and statuses, 20 mock policies, the adjusters as claim users, and 60 claims across
 * statuses (10 draft, 30 open, 12 closed, 8 reopened) with locations, parties, exposures, perils,
 * risks, coverages and attachment folders (parties name their contact-store contacts by number). Half the submitted claims have an adjuster; the rest are
 * the dashboard's pending claims. Deterministic: the same demo on every seed.
 */
const DAY = 86_400_000;
/** The mock policies' demo day: their revisions run 2026-01-01 to 2027-01-01. */
const MOCK_SEED_TIME = Date.UTC(2026, 9, 1);

/**
 * Who wrote the demo policies, in turn: Alex (agent@agency.test) and Blake of Harbour Agency
 * (agency@agency.test), and Noor of Northgate Agency. Agents read the claims of their own policies,
 * agencies those of their agents (docs/security.md, "Who reads which records").
 */
export const DEMO_PRODUCERS = [
  {
    agent: { id: 'CON-AGENT-ALEX', name: 'Alex Agent' },
    agency: { id: 'CON-AGENCY-HARBOUR', name: 'Harbour Agency' },
  },
  {
    agent: { id: 'CON-AGENT-BLAKE', name: 'Blake Broker' },
    agency: { id: 'CON-AGENCY-HARBOUR', name: 'Harbour Agency' },
  },
  {
    agent: { id: 'CON-AGENT-NOOR', name: 'Noor Producer' },
    agency: { id: 'CON-AGENCY-NORTHGATE', name: 'Northgate Agency' },
  },
] as const;

/**
 * With the policies module installed (`policyLookup`), every demo claim is filed on one of its demo
 * policies: loss dates are relative to the seed day, as the policies demo's terms are, and each
 * claim takes its policy number, revision in force, insured, producers and coverages from the policy
 * (seed/demo-claim-policies.ts). Without it, the claims are on the mock policies, on fixed dates
 * inside their fixed terms.
 */
export async function seedDemoClaims(
  tx: Queryable,
  storage: ObjectStorage,
  policyLookup: PolicyLookup | null = null,
): Promise<{ claimIds: number[] }> {
  const book = policyLookup ? await policyLookup.searchPolicies(tx, { search: '', limit: 100 }) : [];
  const seedTime = policyLookup ? Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) : MOCK_SEED_TIME;
  const lookupRows = Object.entries(GLOBAL_LOOKUPS).flatMap(([kind, names]) =>
    names.map((entry, index) => {
      const [name, label] = Array.isArray(entry) ? entry : [entry, entry];
      return { kind, name, label, sortOrder: index };
    }),
  );
  const reasons = Object.entries(STATUS_REASONS).flatMap(([kind, list]) =>
    list.map(([name, fromStatus, toStatus], index) => ({
      kind,
      name: `${name} (${fromStatus} → ${toStatus})`,
      label: name,
      fromStatus,
      toStatus,
      sortOrder: index,
    })),
  );
  const lookups = await tx
    .insert(lookup)
    .values([...lookupRows, ...reasons])
    .returning({ id: lookup.id, kind: lookup.kind, name: lookup.name });
  const lookupId = (kind: string, name: string) => lookups.find((l) => l.kind === kind && l.name === name)?.id ?? null;

  const types = await tx
    .insert(policyType)
    .values(DEMO_PRODUCTS.map((p) => ({ name: p.policyTypeName, label: p.label })))
    .returning();
  const statuses = await tx
    .insert(policyStatus)
    .values([
      { name: 'Active', label: 'Active' },
      { name: 'Cancelled', label: 'Cancelled' },
      { name: 'Expired', label: 'Expired' },
    ])
    .returning();

  const products: {
    id: number;
    perilIds: number[];
    categoryIds: number[];
    riskTypeId: number;
    coverageTypeIds: number[];
    def: (typeof DEMO_PRODUCTS)[number];
  }[] = [];
  for (const def of DEMO_PRODUCTS) {
    const [row] = await tx
      .insert(product)
      .values({
        name: def.name,
        label: def.label,
        policyTypeName: def.policyTypeName,
        isLine: true,
        effectiveFrom: '2025-01-01',
        claimType: { allow_multiple_perils: def.name === 'Homeowners' },
        injuryType: def.injury
          ? { body_parts: ['Head', 'Neck', 'Back', 'Arm', 'Leg'], injury_natures: ['Sprain', 'Fracture', 'Whiplash'] }
          : null,
      })
      .returning();
    const own = await tx
      .insert(lookup)
      .values([
        ...def.perils.map((name, i) => ({ kind: 'peril', productId: row!.id, name, label: name, sortOrder: i })),
        ...def.lossCategories.map((name, i) => ({
          kind: 'loss-category',
          productId: row!.id,
          name,
          label: name,
          sortOrder: i,
        })),
        { kind: 'risk-type-group', productId: row!.id, name: def.riskTypeGroup[0], label: def.riskTypeGroup[1] },
        {
          kind: 'tag',
          productId: row!.id,
          name: `${def.name} Review`,
          label: `${def.name} Review`,
          attributes: { level: 'exposure' },
        },
      ])
      .returning({ id: lookup.id, kind: lookup.kind });
    const [rt] = await tx
      .insert(riskType)
      .values({
        productId: row!.id,
        name: def.riskType[0],
        label: def.riskType[1],
        riskTypeGroupId: own.find((l) => l.kind === 'risk-type-group')!.id,
        attributes: [{ name: 'description', type: 'string' }],
        damageType: def.riskType[0] === 'vehicle' ? 'vehicle' : 'property',
      })
      .returning();
    products.push({
      id: row!.id,
      def,
      perilIds: own.filter((l) => l.kind === 'peril').map((l) => l.id),
      categoryIds: own.filter((l) => l.kind === 'loss-category').map((l) => l.id),
      riskTypeId: rt!.id,
      coverageTypeIds: def.coverages.map((c) => lookupId('coverage-type', c)!),
    });
  }

  await tx.insert(claimUser).values([
    { username: 'adjuster@atrium.test', name: 'Casey Adjuster', email: 'adjuster@atrium.test', phone: '+1 555 0100' },
    { username: 'admin@atrium.test', name: 'Ada Administrator', email: 'admin@atrium.test', phone: '+1 555 0101' },
  ]);

  const person = (i: number) => `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[(i * 3 + 1) % LAST_NAMES.length]}`;
  // The demo's contacts are the contact store's (its seed: shared/demo-people.ts); parties name them by number.

  const policies = await tx
    .insert(mockPolicy)
    .values(
      Array.from({ length: 20 }, (_, i) => ({
        policyNumber: `${i % 2 ? 'PA' : 'HO'}-${String(100200 + i)}`,
        insuredName: person(i),
        productId: products[i % 2]!.id,
        dateAdded: new Date(MOCK_SEED_TIME - (20 - i) * DAY),
      })),
    )
    .returning();
  /** The insured risk of demo policy i: the home, or the car. */
  const riskName = (i: number) => (i % 2 === 0 ? `${100 + i} Main St` : `20${10 + (i % 15)} Sedan`);
  const revisions = await tx
    .insert(policyRevision)
    .values(
      policies.map((p, i) => ({
        policyId: p.id,
        number: `${p.policyNumber}-R1`,
        description: 'New business',
        policyTypeId: types[i % 2]!.id,
        policyStatusId: statuses[i % 7 === 6 ? 1 : 0]!.id,
        effectiveDate: '2026-01-01',
        expirationDate: '2027-01-01',
        primaryInsuredContact: { contact: { name: p.insuredName }, driver: i % 2 === 1 },
        namedInsuredContacts: [{ name: p.insuredName }],
        agencyContact: DEMO_PRODUCERS[i % DEMO_PRODUCERS.length]!.agency,
        agentContact: DEMO_PRODUCERS[i % DEMO_PRODUCERS.length]!.agent,
        files: [
          {
            declaration: true,
            title: `${p.policyNumber} declarations`,
            label: 'Declaration',
            mime_type: 'application/pdf',
            url: `/demo/${p.policyNumber}.pdf`,
          },
        ],
        coverages: DEMO_POLICY_COVERAGES[DEMO_PRODUCTS[i % 2]!.name]!.map(([coverageType, limit, deductible]) => ({
          coverage_type: coverageType,
          label: coverageType,
          limit,
          deductible,
          risk: riskName(i),
        })),
      })),
    )
    .returning({ id: policyRevision.id, policyId: policyRevision.policyId });
  const revisionOf = (policyId: number) => revisions.find((r) => r.policyId === policyId)!.id;

  const reasonFor = { closed: 'Claim Paid', reopened: 'New Information' } as Record<string, string>;
  const claimIds: number[] = [];
  for (let i = 0; i < 60; i++) {
    const status = i < 10 ? 'draft' : i < 40 ? 'open' : i < 52 ? 'closed' : 'reopened';
    const prod = products[i % 2]!;
    const policy = policies[i % policies.length]!;
    const zip = DEMO_ZIPS[i % DEMO_ZIPS.length]!;
    const lossDate = new Date(seedTime - (90 - i) * DAY);
    const real: DemoClaimPolicy | null = policyLookup
      ? await demoClaimPolicies(tx, policyLookup, book, prod.def.name, i, lossDate.toISOString().slice(0, 10))
      : null;
    const insuredName = real?.insured.name ?? policy.insuredName;
    const [loc] = await tx
      .insert(location)
      .values({ line1: `${200 + i} Harbor Rd`, city: zip.city, county: zip.county, state: zip.state, zip: zip.zip })
      .returning({ id: location.id });
    const number = await nextClaimNumber(tx);
    const adjusted = status !== 'draft' && i % 2 === 0;
    const [row] = await tx
      .insert(claim)
      .values({
        number,
        fnolNumber: number,
        status,
        productId: prod.id,
        dateOfLoss: lossDate,
        dateOfLossTimezone: 'America/New_York',
        lossDescription:
          prod.def.name === 'Homeowners'
            ? 'Water from a burst pipe damaged the kitchen.'
            : 'Rear-ended at a stop light.',
        lossLocationId: loc!.id,
        lossCategoryId: prod.categoryIds[i % prod.categoryIds.length]!,
        reportedMethodId: lookupId('reported-method', GLOBAL_LOOKUPS['reported-method']![i % 4] as string),
        reportedDate: status === 'draft' ? null : new Date(lossDate.getTime() + DAY),
        reportedBy: { name: insuredName, relation: 'Insured', phone: '+1 555 0199', email: '' },
        ...(real
          ? real.columns
          : { policyId: policy.id, policyNumber: policy.policyNumber, policyRevisionId: revisionOf(policy.id) }),
        policyType: prod.def.policyTypeName,
        currentFnolStep: status === 'draft' ? 'reported-by' : null,
        statusChangeReason: reasonFor[status] ?? null,
        primaryAdjuster: adjusted ? 'adjuster@atrium.test' : null,
        createdBy: 'adjuster@atrium.test',
        submittedBy: status === 'draft' ? null : 'adjuster@atrium.test',
        createdAt: lossDate,
        updatedAt: lossDate,
      })
      // Its attachment folder comes with it (migration 0016).
      .returning({ id: claim.id, folderId: claim.exposuresFolderId });
    const claimId = row!.id;
    claimIds.push(claimId);
    await tx.insert(claimPeril).values({ claimId, perilId: prod.perilIds[i % prod.perilIds.length]! });
    if (status === 'draft') continue;
    const parties = await tx
      .insert(party)
      .values([
        {
          claimId,
          displayNumber: 1,
          contactId: demoContactNumber(insuredName) ?? null,
          name: insuredName,
          role: 'insured',
          partyTypeId: lookupId('party-type', 'Person'),
        },
        {
          claimId,
          displayNumber: 2,
          contactId: demoContactNumber(person(i + 5)) ?? null,
          name: person(i + 5),
          role: 'claimant',
          partyTypeId: lookupId('party-type', 'Person'),
        },
      ])
      .returning({ id: party.id });
    const [riskRow] = await tx
      .insert(risk)
      .values({
        claimId,
        riskTypeId: prod.riskTypeId,
        name: riskName(i % policies.length),
        isFirstPartyRisk: true,
      })
      .returning({ id: risk.id });
    // On a real policy the claim's coverages are the policy's in force on the loss date.
    const coverageRows = real
      ? real.coverages.map((c) => ({
          claimId,
          name: c.label,
          coverageTypeId: null,
          limitAmount: c.limit || null,
          deductibleAmount: c.deductible || null,
        }))
      : prod.def.coverages.map((name, c) => ({
          claimId,
          name,
          coverageTypeId: prod.coverageTypeIds[c],
          limitAmount: c === 0 ? '250000.00' : '50000.00',
          deductibleAmount: c === 0 ? '1000.00' : '500.00',
        }));
    const coverages = await tx.insert(coverage).values(coverageRows).returning({ id: coverage.id });
    // The exposures' coverages: the first and (third-party) the third, of the policy or the product.
    const coverageTypes = real ? real.coverages.map((c) => c.coverage_type) : prod.def.coverages;
    const second = Math.min(2, coverageTypes.length - 1);
    const exposureStatus = status === 'closed' ? 'closed' : status === 'reopened' ? 'reopened' : 'open';
    await tx.insert(exposure).values([
      {
        claimId,
        number: 1,
        exposureName: real ? real.coverages[0]!.label : prod.def.coverages[0],
        description: 'First-party damage',
        status: exposureStatus,
        partyId: parties[0]!.id,
        coverageId: coverages[0]!.id,
        coverageType: coverageTypes[0],
        policyRevisionId: real ? null : revisionOf(policy.id),
        riskId: riskRow!.id,
        adjuster: adjusted ? 'adjuster@atrium.test' : null,
        statusChangeReason: exposureStatus === 'open' ? null : 'Paid in Full',
      },
      ...(i % 3 === 0
        ? [
            {
              claimId,
              number: 2,
              exposureName: real ? real.coverages[second]!.label : prod.def.coverages[2],
              description: 'Third-party claim',
              status: exposureStatus,
              partyId: parties[1]!.id,
              coverageId: coverages[second]!.id,
              coverageType: coverageTypes[second],
              policyRevisionId: real ? null : revisionOf(policy.id),
              isInjury: prod.def.injury,
              statusChangeReason: exposureStatus === 'open' ? null : 'Paid in Full',
            },
          ]
        : []),
    ]);
    if (adjusted) {
      await tx.insert(claimAssignment).values({
        claimId,
        username: 'adjuster@atrium.test',
        roleId: lookupId('claim-user-role', 'Primary Adjuster')!,
      });
    }
    if (i % 5 === 0) {
      // The Attachments tab opens the claim's tree at its folder, made with the claim.
      const root = { id: row!.folderId! };
      const [photos] = await tx
        .insert(attachmentFolder)
        .values([
          { name: 'Photos', parentId: root.id, referenceId: number },
          { name: 'Estimates', parentId: root.id, referenceId: number },
        ])
        .returning({ id: attachmentFolder.id });
      const note = Buffer.from(`First notice of loss for ${number}.\n`, 'utf8');
      // The bytes go to object storage like any upload; should the seed transaction roll back, the
      // few small objects stay behind unreferenced (docs/storage.md).
      const stored = await storage.put(newObjectKey(ATTACHMENT_KEY_PREFIX), note, { contentType: 'text/plain' });
      await tx.insert(attachment).values({
        folderId: photos!.id,
        name: 'fnol-note.txt',
        mimeType: 'text/plain',
        size: stored.size,
        storageKey: stored.key,
        sha256: stored.sha256,
        uploadedBy: 'adjuster@atrium.test',
      });
    }
  }
  return { claimIds };
}

/**
 * The plugin's seed, in order: claims and everything on them first, then the ledger's demo
 * (authority limits, payees, reserves, payments, recoveries) on those claims' exposures.
 */
export async function seedClaims(context: SeedContext): Promise<void> {
  await seedDemoClaims(context.tx, context.storage, context.optionalService(POLICY_LOOKUP));
  await seedLedger(context.tx);
}
