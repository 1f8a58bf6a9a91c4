import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { claimsKeys, useClaimCollection, useLookup, type Claim } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { documentOf, RecordDialog, saveRecord, type FieldSpec } from '../components/record-dialog.js';
import { pluralize } from '../workspace-tabs.js';
import { SimpleList } from './simple-list.js';

/**
 * claims:risks:types — the claim's risks of one risk type group (vehicles, dwellings …), headed by
 * the plural of the group's label; those who may update the claim add and edit them.
 */
export function RisksTab({
  claim,
  groupName,
  groupId,
  groupLabel,
}: {
  claim: Claim;
  groupName: string;
  groupId: string | null;
  /** The group's own label ('Vehicle'); the heading is its plural. */
  groupLabel?: string;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const all = useClaimCollection(PATHS.risks, claim.id);
  const types = useLookup(PATHS.riskTypes);
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const [editing, setEditing] = useState<Flat | 'new' | null>(null);
  // A risk belongs to a group through its risk type (risk → risk_type → risk_type_group).
  const groupTypes = (types.data ?? []).filter((t) => text(t.risk_type_group_id) === groupId);
  const inGroup = new Set(groupTypes.map((t) => t.id));
  const risks = {
    ...all,
    isPending: all.isPending || types.isPending,
    error: all.error ?? types.error,
    data: all.data && { ...all.data, items: all.data.items.filter((r) => inGroup.has(text(r.risk_type_id))) },
  };
  const singular = groupLabel || groupName.charAt(0).toUpperCase() + groupName.slice(1);
  const label = pluralize(singular);
  const may = canUpdate.allowed && claim.status !== 'closed';
  const typeName = (id: unknown) => {
    const type = groupTypes.find((t) => t.id === text(id));
    return type ? text(type.label) || text(type.name) : '';
  };
  const fields: FieldSpec[] = [
    { name: 'name', label: 'Name', required: true },
    { name: 'sub_name', label: 'Detail', description: 'e.g. year, make and model, or the address' },
    {
      name: 'risk_type',
      label: 'Type',
      kind: 'select',
      relationship: 'risk-type',
      required: true,
      options: groupTypes.map((t) => ({ value: t.id, label: text(t.label) || text(t.name) })),
    },
    { name: 'is_first_party_risk', label: 'First party (the insured’s own)', kind: 'checkbox' },
  ];
  const current = editing && editing !== 'new' ? editing : null;
  return (
    <>
      <SimpleList
        label={label}
        query={risks}
        actions={
          may ? (
            <Button variant="light" onClick={() => setEditing('new')}>
              Add {singular.toLowerCase()}
            </Button>
          ) : null
        }
        columns={[
          ['Name', (r) => text(r.name)],
          ['Detail', (r) => text(r.sub_name)],
          ['Type', (r) => typeName(r.risk_type_id)],
          ['First party', (r) => (r.is_first_party_risk ? 'Yes' : '')],
          ['Expired', (r) => (r.expired ? 'Yes' : '')],
          [
            '',
            (r) =>
              may ? (
                <Button size="xs" variant="subtle" aria-label={`Edit ${text(r.name)}`} onClick={() => setEditing(r)}>
                  Edit
                </Button>
              ) : null,
          ],
        ]}
      />
      {editing ? (
        <RecordDialog
          title={current ? `Edit ${text(current.name)}` : `Add ${singular.toLowerCase()}`}
          submitLabel={current ? 'Save' : `Add ${singular.toLowerCase()}`}
          opened
          fields={fields}
          initial={{
            name: text(current?.name),
            sub_name: text(current?.sub_name),
            risk_type: text(current?.risk_type_id) || (groupTypes.length === 1 ? groupTypes[0]!.id : ''),
            is_first_party_risk: current?.is_first_party_risk === true,
          }}
          onClose={() => setEditing(null)}
          onSubmit={async (values) => {
            const body = documentOf('risk', fields, values, current?.id);
            if (!current) {
              const data = body.data as { relationships?: Record<string, unknown> };
              data.relationships = { ...data.relationships, claim: { data: { type: 'claim', id: claim.id } } };
            }
            const saved = await saveRecord(api, PATHS.risks, body, { id: current?.id });
            await queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claim.id) });
            services.showToast({
              kind: 'success',
              message: `${singular} ${text(saved.name)} was ${current ? 'saved' : 'added'}.`,
            });
            setEditing(null);
          }}
        />
      ) : null}
    </>
  );
}
