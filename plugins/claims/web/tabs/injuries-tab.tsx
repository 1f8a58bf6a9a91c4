import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { claimsKeys, useClaimCollection, useLookup, type Claim } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { documentOf, RecordDialog, saveRecord, type FieldSpec } from '../components/record-dialog.js';
import { useClaimOptions } from './exposure-dialog.js';
import { SimpleList } from './simple-list.js';

const INJURY_NATURES = '/claims/injury-natures/';
const BODY_PARTS = '/claims/injury-body-parts/';

/**
 * claims:injury-summary — shown only when the product has an injury type and the user may read
 * injuries; those who may create injuries (and update the claim) add and edit them: the injured
 * party, nature, body part, treatment, settlement range.
 */
export function InjuriesTab({ claim }: { claim: Claim }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const injuries = useClaimCollection(PATHS.injuries, claim.id);
  const natures = useLookup(INJURY_NATURES);
  const parts = useLookup(BODY_PARTS);
  const options = useClaimOptions(claim.id);
  const canCreate = useCan('claims:injury', 'create');
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const [editing, setEditing] = useState<Flat | 'new' | null>(null);
  const may = canCreate.allowed && canUpdate.allowed && claim.status !== 'closed';
  const labelOf = (rows: Flat[] | undefined, id: unknown) => {
    const row = (rows ?? []).find((r) => r.id === text(id));
    return row ? text(row.label) || text(row.name) : '';
  };
  const lookupOptions = (rows: Flat[] | undefined) =>
    (rows ?? []).filter((r) => !r.expired).map((r) => ({ value: r.id, label: text(r.label) || text(r.name) }));
  const fields: FieldSpec[] = [
    {
      name: 'party',
      label: 'Injured party',
      kind: 'select',
      relationship: 'party',
      required: true,
      options: options.parties,
    },
    {
      name: 'injury_nature',
      label: 'Nature of injury',
      kind: 'select',
      relationship: 'injury-nature',
      options: lookupOptions(natures.data),
    },
    {
      name: 'body_part',
      label: 'Body part',
      kind: 'select',
      relationship: 'injury-body-part',
      options: lookupOptions(parts.data),
    },
    { name: 'treatment', label: 'Treatment' },
    { name: 'settlement_from', label: 'Settlement from', kind: 'money' },
    { name: 'settlement_to', label: 'Settlement to', kind: 'money' },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ];
  const current = editing && editing !== 'new' ? editing : null;
  return (
    <>
      <SimpleList
        label="Injuries"
        query={injuries}
        actions={
          may ? (
            <Button variant="light" onClick={() => setEditing('new')}>
              Add injury
            </Button>
          ) : null
        }
        columns={[
          ['Party', (i) => options.parties.find((p) => p.value === text(i.party_id))?.label ?? ''],
          ['Nature', (i) => labelOf(natures.data, i.injury_nature_id)],
          ['Body part', (i) => labelOf(parts.data, i.body_part_id)],
          ['Treatment', (i) => text(i.treatment)],
          ['Description', (i) => text(i.description)],
          [
            '',
            (i) =>
              may ? (
                <Button size="xs" variant="subtle" aria-label={`Edit injury ${i.id}`} onClick={() => setEditing(i)}>
                  Edit
                </Button>
              ) : null,
          ],
        ]}
      />
      {editing ? (
        <RecordDialog
          title={current ? 'Edit injury' : 'Add injury'}
          submitLabel={current ? 'Save' : 'Add injury'}
          opened
          fields={fields}
          initial={{
            party: text(current?.party_id),
            injury_nature: text(current?.injury_nature_id),
            body_part: text(current?.body_part_id),
            treatment: text(current?.treatment),
            settlement_from: text(current?.settlement_from),
            settlement_to: text(current?.settlement_to),
            description: text(current?.description),
          }}
          onClose={() => setEditing(null)}
          onSubmit={async (values) => {
            const body = documentOf('injury', fields, values, current?.id);
            if (!current) {
              const data = body.data as { relationships?: Record<string, unknown> };
              data.relationships = { ...data.relationships, claim: { data: { type: 'claim', id: claim.id } } };
            }
            await saveRecord(api, PATHS.injuries, body, { id: current?.id });
            await queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claim.id) });
            services.showToast({
              kind: 'success',
              message: current ? 'The injury was saved.' : 'The injury was added.',
            });
            setEditing(null);
          }}
        />
      ) : null}
    </>
  );
}
