import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useCan } from '@atrium/sdk';
import { type Claim, type ClaimWithEtag } from '../api/claims-api.js';
import { formatAmount } from '../api/accounting-api.js';
import { text } from '../api/jsonapi.js';
import { ChangeStatusDialog } from './change-status-dialog.js';
import { ClaimStatusBadge } from './claim-table.js';
import { TagEditor } from './tag-editor.js';
import { adjusterName } from './adjuster-label.js';

/**
 * What the access evaluator sees of a claim (server: claimAccessRecord), so that record conditions
 * (own claims, a state) decide the buttons as they decide the routes.
 */
export function claimAccessRecordOf(claim: Claim): Record<string, unknown> {
  const loss = (claim.loss_location ?? null) as Record<string, unknown> | null;
  return {
    id: Number(claim.id),
    number: claim.number,
    status: claim.status,
    product_id: claim.product_id ? Number(claim.product_id) : null,
    primary_adjuster: claim.primary_adjuster ?? null,
    created_by: (claim.created_by as string | undefined) ?? null,
    loss_state: (loss?.state as string | undefined) ?? null,
    loss_city: (loss?.city as string | undefined) ?? null,
    loss_zip: (loss?.zip as string | undefined) ?? null,
  };
}

/**
 * The workspace header: number, status, the adjuster and total incurred, and Change status (every
 * move the claim may make now, for those who may update it; see ChangeStatusDialog).
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
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const [changing, setChanging] = useState(false);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1} size="h2">
              Claim {claim.number}
            </Title>
            <ClaimStatusBadge status={claim.status} />
          </Group>
          <Text size="sm" c="dimmed">
            Policy {text(claim.policy_number) || '—'} · Adjuster {adjusterName(claim) || 'unassigned'} · Total incurred{' '}
            <span data-testid="claim-total-incurred">{formatAmount(claim.total_incurred)}</span>
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
        {canUpdate.allowed && claim.status !== 'draft' ? (
          <Button variant="light" onClick={() => setChanging(true)}>
            Change status
          </Button>
        ) : null}
      </Group>
      {changing ? (
        <ChangeStatusDialog
          value={value}
          onClose={() => setChanging(false)}
          onSaved={onSaved}
          onReload={() => {
            setChanging(false);
            onReload();
          }}
        />
      ) : null}
    </Paper>
  );
}
