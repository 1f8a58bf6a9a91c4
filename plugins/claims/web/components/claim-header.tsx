import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useApiClient, useCan } from '@atrium/sdk';
import { STATUS_TRANSITIONS } from '../../shared/statuses.js';
import { updateClaim, type ClaimWithEtag } from '../api/claims-api.js';
import { formatAmount } from '../api/accounting-api.js';
import { text } from '../api/jsonapi.js';
import { ClaimStatusBadge } from './claim-table.js';
import { TagEditor } from './tag-editor.js';
import { WriteError } from './stale-alert.js';

/**
 * The workspace header: number, status with the moves allowed from it (and a reason when the move
 * needs one), the adjuster and total incurred. A move is a PATCH with If-Match.
 */
export function ClaimHeader({
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
  // The shared transition table (plugins/claims/shared/statuses.ts); draft → open is the FNOL's submit.
  const moves = STATUS_TRANSITIONS.filter(
    (t) => t.entity === 'claim' && t.from_status === claim.status && t.from_status !== 'draft',
  );
  const [to, setTo] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const move = moves.find((m) => m.to_status === to);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2}>Claim {claim.number}</Title>
            <ClaimStatusBadge status={claim.status} />
          </Group>
          <Text size="sm" c="dimmed">
            Policy {text(claim.policy_number) || '—'} · Adjuster {text(claim.primary_adjuster) || 'unassigned'} · Total
            incurred <span data-testid="claim-total-incurred">{formatAmount(claim.total_incurred)}</span>
          </Text>
          {claim.status_change_reason ? <Text size="sm">Reason: {claim.status_change_reason}</Text> : null}
          <TagEditor
            level="claim"
            recordId={claim.id}
            productId={claim.product_id}
            tagIds={(claim.tags_ids as string[] | undefined) ?? []}
            onSaved={(ids) => onSaved({ claim: { ...claim, tags_ids: ids }, etag })}
          />
        </Stack>
        {canUpdate.allowed && moves.length > 0 ? (
          <Group align="flex-end">
            <Select
              label="Change status"
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
                  onSaved(
                    await updateClaim(api, claim.id, etag, { status: to, status_change_reason: reason.trim() || null }),
                  );
                  setTo(null);
                  setReason('');
                } catch (e) {
                  setError(e);
                } finally {
                  setBusy(false);
                }
              }}
            >
              Apply
            </Button>
          </Group>
        ) : null}
      </Group>
      <WriteError error={error} onReload={onReload} />
    </Paper>
  );
}
