import { Stack, Text, Timeline } from '@mantine/core';
import { EmptyState, ErrorAlert, formatDateTime, LoadingState, statusLabel } from '@atrium/sdk';
import { auditActionLabel, claimStatusLabels, exposureStatusLabels } from '../claims-labels.js';
import { useClaimAudit, useClaimByNumber } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { useOpenClaim } from '../open-claim.js';

const labelsFor = (entityType: string) => (entityType === 'exposure' ? exposureStatusLabels : claimStatusLabels);

function ClaimActivity({ claimNumber }: { claimNumber: string }) {
  const claim = useClaimByNumber(claimNumber);
  const audit = useClaimAudit(claim.data?.claim.id);
  if (claim.error) return <ErrorAlert error={claim.error} />;
  if (audit.error) return <ErrorAlert error={audit.error} />;
  if (!audit.data) return <LoadingState rows={4} label="Loading activity" />;
  if (audit.data.length === 0) return <EmptyState title={`No activity on claim ${claimNumber} yet.`} />;
  return (
    <Timeline bulletSize={12} lineWidth={2} aria-label={`Activity of claim ${claimNumber}`}>
      {audit.data.map((entry) => (
        <Timeline.Item key={entry.id} title={auditActionLabel(text(entry.action), text(entry.entity_type))}>
          <Text size="xs" c="dimmed">
            {text(entry.username)} · {formatDateTime(text(entry.at))}
          </Text>
          {entry.from_status || entry.to_status ? (
            <Text size="xs">
              {statusLabel(labelsFor(text(entry.entity_type)), text(entry.from_status))} →{' '}
              {statusLabel(labelsFor(text(entry.entity_type)), text(entry.to_status))}{' '}
              {entry.reason ? `(${text(entry.reason)})` : ''}
            </Text>
          ) : null}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** Activity sidebar "Claims activity": the open claim's latest audit-log entries. */
export default function ClaimsActivityPanel() {
  const claimNumber = useOpenClaim();
  return (
    <Stack gap="sm">
      {claimNumber ? (
        <ClaimActivity claimNumber={claimNumber} />
      ) : (
        <Text size="sm">Open a claim to see its activity.</Text>
      )}
    </Stack>
  );
}
