import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useCan } from '@atrium/sdk';
import { updateClaim, useLookup, type ClaimWithEtag } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { useClaimsUsers } from '../api/workspace-api.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { RecordDialog, type FieldSpec, type FieldValues } from '../components/record-dialog.js';
import { claimStatusLabels } from '../claims-labels.js';
import { adjusterNameAndUser } from '../components/adjuster-label.js';

function Field({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{text(value) || '—'}</Text>
    </div>
  );
}

/** A lookup's rows as options: the product's own and the global ones (no product), by label. */
function optionsOf(rows: Flat[] | undefined, productId: string | undefined) {
  return (rows ?? [])
    .filter((r) => !r.expired && (!r.product_id || !productId || text(r.product_id) === productId))
    .map((r) => ({ value: text(r.name), label: text(r.label) || text(r.name) }))
    .filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);
}

/** The attributes a PATCH of the details sends: the loss location travels as one embedded address. */
export function detailsAttributes(values: FieldValues): Record<string, unknown> {
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string).trim() : '');
  const location = {
    line1: str('loss_location.line1'),
    city: str('loss_location.city'),
    state: str('loss_location.state'),
    zip: str('loss_location.zip'),
  };
  return {
    date_of_loss: str('date_of_loss') || null,
    reported_date: str('reported_date') || null,
    reported_method: str('reported_method') || null,
    loss_category: str('loss_category') || null,
    perils: Array.isArray(values.perils) ? values.perils : [],
    loss_description: str('loss_description'),
    primary_adjuster: str('primary_adjuster') || null,
    loss_location: Object.values(location).some(Boolean) ? location : null,
  };
}

/**
 * claims:loss-detail — the loss as reported; "Edit details" changes the claim's editable fields
 * (dates, how it was reported, category and perils of the product, the loss location and
 * description, the primary adjuster) for those who may update this claim. Saving sends the ETag the
 * claim was read at (If-Match); when someone else changed it first the server answers 412 and the
 * dialog says so.
 */
export function DetailsTab({
  value,
  onSaved,
  onReload,
}: {
  value: ClaimWithEtag;
  onSaved(next: ClaimWithEtag): void;
  onReload(): void;
}) {
  const { claim, etag } = value;
  const api = useApiClient();
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const [editing, setEditing] = useState(false);
  const methods = useLookup(PATHS.reportedMethods, editing);
  const categories = useLookup(PATHS.lossCategories, editing);
  const perils = useLookup(PATHS.perils, editing);
  const users = useClaimsUsers(editing);
  const location = (claim.loss_location ?? {}) as Record<string, unknown>;
  const reported = (claim.reported_by ?? {}) as Record<string, unknown>;
  const productId = claim.product_id ? text(claim.product_id) : undefined;

  const fields: FieldSpec[] = [
    { name: 'date_of_loss', label: 'Date of loss', kind: 'date', required: claim.status !== 'draft' },
    { name: 'reported_date', label: 'Reported date', kind: 'date' },
    { name: 'reported_method', label: 'Reported method', kind: 'select', options: optionsOf(methods.data, productId) },
    { name: 'loss_category', label: 'Loss category', kind: 'select', options: optionsOf(categories.data, productId) },
    { name: 'perils', label: 'Perils', kind: 'multiselect', options: optionsOf(perils.data, productId) },
    { name: 'loss_location.line1', label: 'Loss address' },
    { name: 'loss_location.city', label: 'Loss city' },
    { name: 'loss_location.state', label: 'Loss state' },
    { name: 'loss_location.zip', label: 'Loss ZIP' },
    { name: 'loss_description', label: 'Loss description', kind: 'textarea' },
    { name: 'primary_adjuster', label: 'Primary adjuster', kind: 'select', options: users.data ?? [] },
  ];
  const initial: FieldValues = {
    date_of_loss: text(claim.date_of_loss).slice(0, 10),
    reported_date: text(claim.reported_date).slice(0, 10),
    reported_method: text(claim.reported_method),
    loss_category: text(claim.loss_category),
    perils: ((claim.perils as unknown[] | undefined) ?? []).map(text),
    'loss_location.line1': text(location.line1),
    'loss_location.city': text(location.city),
    'loss_location.state': text(location.state),
    'loss_location.zip': text(location.zip),
    loss_description: text(claim.loss_description),
    primary_adjuster: text(claim.primary_adjuster),
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label="Date of loss" value={text(claim.date_of_loss).slice(0, 10)} />
        <Field label="Reported date" value={text(claim.reported_date).slice(0, 10)} />
        <Field label="Reported by" value={reported.name} />
        <Field label="Reported method" value={claim.reported_method} />
        <Field
          label="Loss location"
          value={[location.line1, location.city, location.state, location.zip].filter(Boolean).join(', ')}
        />
        <Field label="Loss category" value={claim.loss_category} />
        <Field label="Perils" value={(claim.perils as unknown[] | undefined)?.join(', ')} />
        <Field label="Policy" value={claim.policy_number} />
        <Field label="FNOL number" value={claim.fnol_number} />
        <Field label="Status" value={claimStatusLabels[claim.status as keyof typeof claimStatusLabels]?.label ?? ''} />
        <Field label="Primary adjuster" value={adjusterNameAndUser(claim)} />
      </SimpleGrid>
      <Field label="Loss description" value={claim.loss_description} />
      {canUpdate.allowed ? (
        <Group>
          <Button variant="light" onClick={() => setEditing(true)}>
            Edit details
          </Button>
        </Group>
      ) : null}
      {editing ? (
        <RecordDialog
          title={`Edit details of claim ${claim.number}`}
          opened
          fields={fields}
          initial={initial}
          onClose={() => setEditing(false)}
          onReload={() => {
            setEditing(false);
            onReload();
          }}
          onSubmit={async (values) => {
            onSaved(
              await updateClaim(api, claim.id, etag, detailsAttributes(values), { preventForbiddenRedirect: true }),
            );
            setEditing(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
