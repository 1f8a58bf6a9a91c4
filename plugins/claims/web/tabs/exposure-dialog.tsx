import { useQueryClient } from '@tanstack/react-query';
import { useApiClient, useHostServices } from '@atrium/sdk';
import { claimsKeys, useClaimCollection, type Claim } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { coverageLabel, toCoverages, useRevision } from '../api/policies-api.js';
import { useClaimsUsers } from '../api/workspace-api.js';
import { documentOf, RecordDialog, saveRecord, type FieldSpec, type FieldValues } from '../components/record-dialog.js';

/** Parties, (legacy) coverage rows and risks of the claim as select options (names, never ids). */
export function useClaimOptions(claimId: string, enabled = true) {
  const parties = useClaimCollection(PATHS.parties, enabled ? claimId : undefined);
  const coverages = useClaimCollection(PATHS.coverages, enabled ? claimId : undefined);
  const risks = useClaimCollection(PATHS.risks, enabled ? claimId : undefined);
  const option = (r: Flat, label: string) => ({ value: r.id, label });
  return {
    parties: (parties.data?.items ?? []).map((p) =>
      option(p, [text(p.name), text(p.role)].filter(Boolean).join(' · ') || `Party ${text(p.display_number)}`),
    ),
    coverages: (coverages.data?.items ?? []).map((c) => option(c, text(c.name) || 'Coverage')),
    risks: (risks.data?.items ?? []).map((r) =>
      option(r, [text(r.name), text(r.sub_name)].filter(Boolean).join(' · ') || 'Risk'),
    ),
  };
}

/**
 * Add or edit an exposure: name, claimant, the policy coverage claimed under (a coverage of the
 * claim's policy revision, stored as its coverage type and the revision's id), risk of this claim,
 * the adjuster (a claims user), description, injury. POST exposures/ with the claim relationship, or
 * PATCH with the exposure's If-Match.
 */
export function ExposureDialog({
  claim,
  exposure,
  etag,
  onClose,
  onSaved,
}: {
  claim: Claim;
  /** null: a new exposure. */
  exposure: Flat | null;
  etag?: string | null;
  onClose(): void;
  onSaved?(saved: Flat): void;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const options = useClaimOptions(claim.id);
  const users = useClaimsUsers();
  // The revision the exposure already claims under, else the claim's own.
  // A claim on a policies-module policy carries its revision's coverages (copied when it was chosen).
  const copied = claim.policy_source === 'policies' ? toCoverages(claim.policy_coverages) : null;
  const revisionId = copied ? null : text(exposure?.policy_revision_id) || text(claim.policy_revision_id) || null;
  const revision = useRevision(revisionId);
  const coverageOptions = (copied ?? revision.data?.coverages ?? []).map((c) => ({
    value: c.coverage_type,
    label: coverageLabel(c),
  }));
  const fields: FieldSpec[] = [
    { name: 'exposure_name', label: 'Exposure name', required: true },
    { name: 'party', label: 'Claimant', kind: 'select', relationship: 'party', options: options.parties },
    {
      name: 'coverage_type',
      label: 'Coverage',
      kind: 'select',
      options: coverageOptions,
      description:
        revisionId || copied
          ? undefined
          : 'The claim has no policy revision, so there are no coverages to claim under.',
    },
    { name: 'risk', label: 'Risk', kind: 'select', relationship: 'risk', options: options.risks },
    { name: 'adjuster', label: 'Adjuster', kind: 'select', options: users.data ?? [] },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'is_injury', label: 'Injury exposure', kind: 'checkbox' },
  ];
  const initial: FieldValues = {
    exposure_name: text(exposure?.exposure_name),
    party: text(exposure?.party_id),
    coverage_type: text(exposure?.coverage_type),
    risk: text(exposure?.risk_id),
    adjuster: text(exposure?.adjuster),
    description: text(exposure?.description),
    is_injury: exposure?.is_injury === true,
  };
  return (
    <RecordDialog
      title={exposure ? `Edit exposure ${text(exposure.display_number || exposure.number)}` : 'Add exposure'}
      submitLabel={exposure ? 'Save' : 'Add exposure'}
      opened
      fields={fields}
      initial={initial}
      onClose={onClose}
      onSubmit={async (values) => {
        const body = documentOf('exposure', fields, values, exposure?.id);
        if (values.coverage_type && revisionId) {
          const data = body.data as { attributes: Record<string, unknown> };
          data.attributes.policy_revision_id = Number(revisionId);
        }
        if (!exposure) {
          const data = body.data as { relationships?: Record<string, unknown> };
          data.relationships = { ...data.relationships, claim: { data: { type: 'claim', id: claim.id } } };
        }
        const saved = await saveRecord(api, PATHS.exposures, body, {
          id: exposure?.id,
          headers: exposure && etag ? { 'If-Match': etag } : undefined,
        });
        await queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claim.id) });
        await queryClient.invalidateQueries({ queryKey: ['claims-module', 'exposure', saved.id] });
        services.showToast({
          kind: 'success',
          message: exposure
            ? `Exposure ${text(saved.display_number || saved.number)} was saved.`
            : `Exposure ${text(saved.display_number || saved.number)} was added.`,
        });
        onSaved?.(saved);
        onClose();
      }}
    />
  );
}
