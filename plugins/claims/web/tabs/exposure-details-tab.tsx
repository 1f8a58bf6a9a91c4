import { Alert, Anchor, Button, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ErrorAlert, useApiClient, useCan } from '@atrium/sdk';
import { STATUS_TRANSITIONS } from '../../shared/statuses.js';
import { claimsKeys, updateExposure, useExposure, type Claim } from '../api/claims-api.js';
import { WriteError } from '../components/stale-alert.js';
import { ExposureTagEditor } from '../components/tag-editor.js';
import { text, type Flat } from '../api/jsonapi.js';
import { claimsExposuresRoute } from '../routes.js';
import { useExposures } from './exposures-tab.js';
import { ExposureDialog, useClaimOptions } from './exposure-dialog.js';
import { exposureStatusLabels } from '../claims-labels.js';

/** claims:claimants:exposures:details — one exposure; an unknown number says 'Exposure {n} not found.' */
export function ExposureDetailsTab({
  claim,
  claimantNumber,
  exposureNumber,
}: {
  claim: Claim;
  claimantNumber: string;
  exposureNumber: string;
}) {
  const exposures = useExposures(claim.id);
  const options = useClaimOptions(claim.id);
  const canUpdate = useCan('claims:exposure', 'update');
  const [editing, setEditing] = useState(false);
  if (exposures.error) return <ErrorAlert error={exposures.error} />;
  if (exposures.isPending) return <Text>Loading exposure…</Text>;
  const exposure = exposures.data.items.find((e) => text(e.number) === exposureNumber);
  const back = (
    <Anchor component={Link} to={claimsExposuresRoute.link({ claimNumber: claim.number })}>
      All exposures
    </Anchor>
  );
  if (!exposure)
    return (
      <Stack>
        <Alert color="red" role="alert">
          Exposure {exposureNumber} not found.
        </Alert>
        {back}
      </Stack>
    );
  const nameIn = (list: { value: string; label: string }[], id: unknown) =>
    list.find((o) => o.value === text(id))?.label ?? '';
  const rows: [string, unknown][] = [
    [
      'Claimant',
      exposure.claimant_name ||
        nameIn(options.parties, exposure.party_id) ||
        (claimantNumber !== '0' ? `Claimant ${claimantNumber}` : ''),
    ],
    ['Status', exposureStatusLabels[exposure.status as keyof typeof exposureStatusLabels]?.label ?? ''],
    ['Description', exposure.description],
    ['Coverage', exposure.coverage_name || nameIn(options.coverages, exposure.coverage_id)],
    ['Risk', nameIn(options.risks, exposure.risk_id)],
    ['Adjuster', exposure.adjuster],
    ['Adjuster start date', text(exposure.adjuster_start_date).slice(0, 10)],
    ['Deductible applied', exposure.deductible_applied_status],
    ['Deductible override', exposure.deductible_override_amount],
    ['Injury', exposure.is_injury ? 'Yes' : 'No'],
  ];
  return (
    <Stack>
      {back}
      <ExposureStatus exposureId={exposure.id} claimId={claim.id} />
      <Title order={4}>
        Exposure {text(exposure.display_number || exposure.number)} {text(exposure.exposure_name)}
      </Title>
      {canUpdate.allowed ? (
        <Group>
          <Button variant="light" onClick={() => setEditing(true)}>
            Edit exposure
          </Button>
        </Group>
      ) : null}
      {editing ? <ExposureEditor claim={claim} exposure={exposure} onClose={() => setEditing(false)} /> : null}
      <ExposureTagEditor claim={claim} exposure={exposure} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm">{text(value) || '—'}</Text>
          </div>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The edit dialog, with the ETag of the exposure as read now. */
function ExposureEditor({ claim, exposure, onClose }: { claim: Claim; exposure: Flat; onClose(): void }) {
  const current = useExposure(exposure.id);
  if (!current.data) return null;
  return <ExposureDialog claim={claim} exposure={current.data.exposure} etag={current.data.etag} onClose={onClose} />;
}

/** The exposure's status moves (shared/statuses.ts), with the reason they need; PATCH with If-Match. */
function ExposureStatus({ exposureId, claimId }: { exposureId: string; claimId: string }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canUpdate = useCan('claims:exposure', 'update');
  const current = useExposure(exposureId);
  const [to, setTo] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const exposure: Flat | undefined = current.data?.exposure;
  if (!exposure || !canUpdate.allowed) return null;
  const moves = STATUS_TRANSITIONS.filter((t) => t.entity === 'exposure' && t.from_status === exposure.status);
  if (moves.length === 0) return null;
  const move = moves.find((m) => m.to_status === to);
  const reload = () => {
    setError(null);
    void current.refetch();
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <Select
          label="Change exposure status"
          size="xs"
          data={moves.map((m) => ({ value: m.to_status, label: m.action }))}
          value={to}
          onChange={setTo}
        />
        {move?.reason_required ? (
          <TextInput label="Reason" size="xs" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        ) : null}
        <Button
          size="xs"
          loading={busy}
          disabled={!to || (!!move?.reason_required && !reason.trim())}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await updateExposure(api, exposureId, current.data!.etag, {
                status: to,
                status_change_reason: reason.trim() || null,
              });
              setTo(null);
              setReason('');
              await Promise.all([
                current.refetch(),
                queryClient.invalidateQueries({ queryKey: claimsKeys.claimParts(claimId) }),
              ]);
            } catch (e) {
              setError(e);
            } finally {
              setBusy(false);
            }
          }}
        >
          Apply to exposure
        </Button>
      </Group>
      <WriteError error={error} onReload={reload} />
    </Stack>
  );
}
