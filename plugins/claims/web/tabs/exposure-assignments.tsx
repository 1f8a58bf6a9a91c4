import { ActionIcon, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient, useCan, useHostServices, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import type { Claim } from '../api/claims-api.js';
import { actionErrorMessageOf, flattenAll, text, type Flat } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { useClaimsUsers } from '../api/workspace-api.js';
import { claimAccessRecordOf } from '../components/claim-header.js';
import { RecordDialog, type FieldSpec } from '../components/record-dialog.js';

/**
 * Exposure-level assignment (spec "Exposure assignment: username, role_id, exposure_id"): who works
 * an exposure in which claim role. The exposures tab lists them per exposure; those who may update
 * the claim and assign (the same access evaluation the server makes) assign and remove them.
 */
const assignmentsKey = (claimId: string) => ['claims-module', 'exposure-assignments', claimId];

/** Every exposure assignment of the claim, in one request (`claim_id`). */
export function useExposureAssignments(claimId: string, enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: assignmentsKey(claimId),
    enabled,
    queryFn: async ({ signal }) =>
      flattenAll(
        await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.exposureAssignments, {
          jsonApi: true,
          signal,
          preventForbiddenRedirect: true,
          query: { claim_id: claimId, page_size: 1000 },
        }),
      ),
  });
}

/** The claim user roles (Primary Adjuster, Supervisor …) as options, by level. */
export function useClaimUserRoles(enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'claim-user-roles'],
    enabled,
    staleTime: 300_000,
    queryFn: async ({ signal }) =>
      flattenAll(
        await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.userRoles, {
          jsonApi: true,
          signal,
          preventForbiddenRedirect: true,
        }),
      ).map((r) => ({ value: r.id, label: text(r.label) || text(r.name) })),
  });
}

/** May the caller assign people to this claim's exposures? (claim update + assignment create.) */
export function useMayAssignExposures(claim: Claim) {
  const canUpdate = useCan('claims:claim', 'update', claimAccessRecordOf(claim));
  const canAssign = useCan('claims:assignment', 'create');
  return canUpdate.allowed && canAssign.allowed && claim.status !== 'closed' && claim.status !== 'draft';
}

/** One exposure's assignees ("Name · Role"), each with a remove button for those who may assign. */
export function ExposureAssignees({
  claim,
  exposure,
  assignments,
  mayAssign,
}: {
  claim: Claim;
  exposure: Flat;
  assignments: Flat[];
  mayAssign: boolean;
}) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  // Names of users and roles for those who may read them (else the user name and "Role").
  const canReadUsers = useCan('claims:user', 'read').allowed;
  const users = useClaimsUsers(canReadUsers);
  const roles = useClaimUserRoles(canReadUsers);
  const [assigning, setAssigning] = useState(false);
  const mine = assignments.filter((a) => text(a.exposure_id) === exposure.id);
  const exposureName = text(exposure.display_number || exposure.number);
  const userName = (username: string) => users.data?.find((u) => u.value === username)?.label ?? username;
  const roleName = (id: unknown) => roles.data?.find((r) => r.value === text(id))?.label ?? 'Role';
  const remove = async (assignment: Flat) => {
    try {
      await api.delete(PATHS.exposureAssignment(assignment.id), { jsonApi: true, preventForbiddenRedirect: true });
      await queryClient.invalidateQueries({ queryKey: assignmentsKey(claim.id) });
      services.showToast({
        kind: 'success',
        message: `${userName(text(assignment.username))} was removed from exposure ${exposureName}.`,
      });
    } catch (error) {
      services.showToast({ kind: 'error', message: actionErrorMessageOf(error) });
    }
  };
  const fields: FieldSpec[] = [
    { name: 'username', label: 'User', kind: 'select', required: true, options: users.data ?? [] },
    { name: 'role_id', label: 'Role', kind: 'select', required: true, options: roles.data ?? [] },
  ];
  return (
    <Stack gap={4}>
      {mine.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody assigned
        </Text>
      ) : null}
      {mine.map((assignment) => {
        const label = `${userName(text(assignment.username))} · ${roleName(assignment.role_id)}`;
        return (
          <Group key={assignment.id} gap={4} wrap="nowrap">
            <Text size="sm">{label}</Text>
            {mayAssign ? (
              <Tooltip label="Remove">
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${label} from exposure ${exposureName}`}
                  onClick={() => void remove(assignment)}
                >
                  ×
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        );
      })}
      {mayAssign ? (
        <Group>
          <Button
            size="compact-xs"
            variant="subtle"
            aria-label={`Assign exposure ${exposureName}`}
            onClick={() => setAssigning(true)}
          >
            Assign
          </Button>
        </Group>
      ) : null}
      {assigning ? (
        <RecordDialog
          title={`Assign exposure ${exposureName}`}
          submitLabel="Assign"
          opened
          fields={fields}
          initial={{ username: '', role_id: '' }}
          onClose={() => setAssigning(false)}
          onSubmit={async (values) => {
            await api.post(
              PATHS.exposureAssignments,
              { username: values.username, role_id: Number(values.role_id), exposure_id: Number(exposure.id) },
              { preventForbiddenRedirect: true },
            );
            await queryClient.invalidateQueries({ queryKey: assignmentsKey(claim.id) });
            services.showToast({
              kind: 'success',
              message: `${userName(text(values.username))} was assigned to exposure ${exposureName}.`,
            });
            setAssigning(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
