import { Button, Group, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { mapServerFormErrors, useApiClient, useCan } from '@atrium/sdk';
import { updateClaim, type ClaimWithEtag } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { WriteError } from '../components/stale-alert.js';

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

/**
 * claims:loss-detail — the loss as reported, editable by those who may update claims. Saving sends
 * the ETag the claim was read at (If-Match); when someone else changed it first the server answers
 * 412 and the tab offers a reload instead of overwriting their change.
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
  const canUpdate = useCan('claims:claim', 'update');
  const [editing, setEditing] = useState(false);
  const [dateOfLoss, setDateOfLoss] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const location = (claim.loss_location ?? {}) as Record<string, unknown>;
  const reported = (claim.reported_by ?? {}) as Record<string, unknown>;
  const fieldErrors = mapServerFormErrors(error).fields;

  if (!editing)
    return (
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label="Date of loss" value={text(claim.date_of_loss).slice(0, 10)} />
          <Field label="Reported date" value={text(claim.reported_date).slice(0, 10)} />
          <Field label="Reported by" value={reported.name} />
          <Field
            label="Loss location"
            value={[location.line1, location.city, location.state, location.zip].filter(Boolean).join(', ')}
          />
          <Field label="Loss category" value={claim.loss_category} />
          <Field label="Perils" value={(claim.perils as unknown[] | undefined)?.join(', ')} />
          <Field label="Policy" value={claim.policy_number} />
          <Field label="FNOL number" value={claim.fnol_number} />
          <Field label="Status" value={claim.status} />
        </SimpleGrid>
        <Field label="Loss description" value={claim.loss_description} />
        {canUpdate.allowed ? (
          <Group>
            <Button
              variant="light"
              onClick={() => {
                setDateOfLoss(text(claim.date_of_loss).slice(0, 10));
                setDescription(text(claim.loss_description));
                setError(null);
                setEditing(true);
              }}
            >
              Edit details
            </Button>
          </Group>
        ) : null}
      </Stack>
    );

  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          onSaved(
            await updateClaim(api, claim.id, etag, { date_of_loss: dateOfLoss || null, loss_description: description }),
          );
          setEditing(false);
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Stack maw={560}>
        <TextInput
          label="Date of loss"
          type="date"
          value={dateOfLoss}
          onChange={(e) => setDateOfLoss(e.currentTarget.value)}
          error={fieldErrors.date_of_loss}
        />
        <Textarea
          label="Loss description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldErrors.loss_description}
        />
        <WriteError
          error={error}
          onReload={() => {
            setEditing(false);
            setError(null);
            onReload();
          }}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Save
          </Button>
          <Button variant="default" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
