import { Stack, Text, Timeline } from '@mantine/core';
import { ErrorAlert } from '@atrium/sdk';
import { useClaimAudit, useClaimByNumber } from '../api/claims-api.js';
import { text } from '../api/jsonapi.js';
import { useOpenClaim } from '../open-claim.js';

function ClaimActivity({ claimNumber }: { claimNumber: string }) {
  const claim = useClaimByNumber(claimNumber);
  const audit = useClaimAudit(claim.data?.claim.id);
  if (claim.error) return <ErrorAlert error={claim.error} />;
  if (audit.error) return <ErrorAlert error={audit.error} />;
  if (!audit.data) return <Text size="sm">Loading activity…</Text>;
  if (audit.data.length === 0) return <Text size="sm">No activity on claim {claimNumber} yet.</Text>;
  return (
    <Timeline bulletSize={12} lineWidth={2} aria-label={`Activity of claim ${claimNumber}`}>
      {audit.data.map((entry) => (
        <Timeline.Item key={entry.id} title={`${text(entry.action)} ${text(entry.entity_type)}`.trim()}>
          <Text size="xs" c="dimmed">
            {text(entry.username)} · {text(entry.at).replace('T', ' ').slice(0, 16)}
          </Text>
          {entry.from_status || entry.to_status ? (
            <Text size="xs">
              {text(entry.from_status)} → {text(entry.to_status)} {entry.reason ? `(${text(entry.reason)})` : ''}
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
