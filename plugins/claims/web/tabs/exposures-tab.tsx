import { Anchor, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ErrorAlert, LoadingState, useCan } from '@atrium/sdk';
import { useClaimCollection, type Claim } from '../api/claims-api.js';
import { text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { claimsExposureDetailsRoute } from '../routes.js';
import { StatusBadge } from '@atrium/sdk';
import { exposureStatusLabels } from '../claims-labels.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { useClaimsUsers } from '../api/workspace-api.js';
import { ExposureDialog } from './exposure-dialog.js';
import { ExposureAssignees, useExposureAssignments, useMayAssignExposures } from './exposure-assignments.js';

export interface ClaimantGroup {
  claimantNumber: string;
  claimantName: string;
  exposures: Flat[];
}

/** Spec: exposures are grouped by claimant by default. Exposures without a party form one group. */
export function groupByClaimant(exposures: Flat[], parties: Flat[]) {
  const groups = new Map<string, ClaimantGroup>();
  for (const exposure of exposures) {
    const party = parties.find((p) => p.id === exposure.party_id) ?? null;
    const claimantNumber = text(party?.display_number ?? exposure.party_id ?? '');
    const claimantName = text(party?.name) || (claimantNumber ? `Claimant ${claimantNumber}` : 'No claimant');
    const group = groups.get(claimantNumber) ?? { claimantNumber, claimantName, exposures: [] };
    group.exposures.push(exposure);
    groups.set(claimantNumber, group);
  }
  return [...groups.values()];
}

export function useExposures(claimId: string) {
  return useClaimCollection(PATHS.exposures, claimId);
}

export function useParties(claimId: string) {
  return useClaimCollection(PATHS.parties, claimId);
}

/**
 * claims:exposures — the claim's exposures, one card per claimant; "Add exposure" for those who may
 * update the claim (the claim can grow after FNOL).
 */
export function ExposuresTab({ claim }: { claim: Claim }) {
  const exposures = useExposures(claim.id);
  const parties = useParties(claim.id);
  const canAdd = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const canCreate = useCan('claims:exposure', 'create');
  const canReadAssignments = useCan('claims:assignment', 'read').allowed;
  // Adjusters by name (for those who may read the claims users), else their user name.
  const users = useClaimsUsers(useCan('claims:user', 'read').allowed);
  const adjusterName = (username: string) => users.data?.find((u) => u.value === username)?.label ?? username;
  const assignments = useExposureAssignments(claim.id, canReadAssignments);
  const mayAssign = useMayAssignExposures(claim);
  const [adding, setAdding] = useState(false);
  const mayAdd = canAdd.allowed && canCreate.allowed && claim.status !== 'closed' && claim.status !== 'draft';
  if (exposures.error || parties.error) return <ErrorAlert error={exposures.error ?? parties.error} />;
  if (exposures.isPending || parties.isPending) return <LoadingState label="Loading exposures…" />;
  const groups = groupByClaimant(exposures.data.items, parties.data.items);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Exposures</Title>
        {mayAdd ? (
          <Button variant="light" onClick={() => setAdding(true)}>
            Add exposure
          </Button>
        ) : null}
      </Group>
      {adding ? <ExposureDialog claim={claim} exposure={null} onClose={() => setAdding(false)} /> : null}
      {groups.length === 0 ? <Text c="dimmed">No exposures.</Text> : null}
      {groups.map((group) => (
        <Card key={group.claimantNumber} withBorder>
          <Title order={4}>{group.claimantName}</Title>
          <Table aria-label={`Exposures of ${group.claimantName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Exposure</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Coverage</Table.Th>
                <Table.Th>Adjuster</Table.Th>
                {canReadAssignments ? <Table.Th>Assigned</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {group.exposures.map((exposure) => (
                <Table.Tr key={exposure.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor
                      component={Link}
                      to={claimsExposureDetailsRoute.link({
                        claimNumber: claim.number,
                        claimant_number: group.claimantNumber || '0',
                        exposure_number: text(exposure.number),
                      })}
                    >
                      {text(exposure.display_number || exposure.number)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{text(exposure.exposure_name || exposure.description)}</Table.Td>
                  <Table.Td>
                    <StatusBadge labels={exposureStatusLabels} value={text(exposure.status)} />
                  </Table.Td>
                  <Table.Td>{text(exposure.coverage_name) || '—'}</Table.Td>
                  <Table.Td>{adjusterName(text(exposure.adjuster ?? exposure.adjuster_id)) || '—'}</Table.Td>
                  {canReadAssignments ? (
                    <Table.Td>
                      <ExposureAssignees
                        claim={claim}
                        exposure={exposure}
                        assignments={assignments.data ?? []}
                        mayAssign={mayAssign}
                      />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ))}
    </Stack>
  );
}
