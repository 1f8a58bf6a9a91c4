import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BatchFailureModal, ErrorAlert, useApiClient, useCan, type BatchFailure } from '@atrium/sdk';
import { assignClaim, claimsKeys, PENDING_PAGE_SIZE, useClaimPage } from '../api/claims-api.js';
import { errorMessageOf, flatten, text } from '../api/jsonapi.js';
import { PATHS } from '../api/paths.js';
import { ClaimTable } from '../components/claim-table.js';

/** Spec "Business constants": adjusters are listed 10 at a time. */
const ADJUSTERS_SHOWN = 10;

/** The claims users integration: who claims can be assigned to (all of them; the picker filters). */
function useAdjusters() {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'adjusters'],
    queryFn: async ({ signal }) => {
      const answer = await api.get<{ data?: unknown[] }>(PATHS.users, { jsonApi: true, signal });
      return ((answer?.data ?? []) as Parameters<typeof flatten>[0][]).map((row) => {
        const user = flatten(row);
        return { username: text(user.username || user.id), name: text(user.name || user.username || user.id) };
      });
    },
  });
}

/**
 * The assign-claims area: pending claims (no adjuster), select some, pick an adjuster, assign —
 * one `POST claims/users/{username}/assign/claims/` per claim; the ones that failed are listed in
 * the SDK's batch-failure dialog with the server's reason.
 */
export default function AssignClaimsPage() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canAssign = useCan('claims:claim', 'assign');
  const [page, setPage] = useState(1);
  const list = useClaimPage({ has_adjuster: 'false' }, page, PENDING_PAGE_SIZE);
  const adjusters = useAdjusters();
  const [adjuster, setAdjuster] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [failures, setFailures] = useState<BatchFailure[]>([]);
  const [total, setTotal] = useState(0);
  const [busy, setBusy] = useState(false);
  const claims = list.data?.claims ?? [];

  const assign = async () => {
    if (!adjuster) return;
    const chosen = claims.filter((c) => selected.has(c.id));
    setBusy(true);
    const outcomes = await Promise.allSettled(chosen.map((c) => assignClaim(api, adjuster, c.id)));
    setBusy(false);
    const failed = outcomes.flatMap((o, i) =>
      o.status === 'rejected' ? [{ label: chosen[i]!.number, errorMessage: errorMessageOf(o.reason) }] : [],
    );
    setTotal(chosen.length);
    setFailures(failed);
    setSelected(new Set());
    void queryClient.invalidateQueries({ queryKey: claimsKeys.all });
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        Assign claims
      </Title>
      <ErrorAlert error={list.error ?? adjusters.error} />
      {canAssign.allowed ? (
        <Group align="flex-end">
          <Select
            label="Adjuster"
            searchable
            limit={ADJUSTERS_SHOWN}
            data={(adjusters.data ?? []).map((a) => ({ value: a.username, label: a.name }))}
            value={adjuster}
            onChange={setAdjuster}
            w={280}
          />
          <Button disabled={!adjuster || selected.size === 0} loading={busy} onClick={assign}>
            Assign selected ({selected.size})
          </Button>
        </Group>
      ) : (
        <Text c="dimmed">You may view pending claims but not assign them.</Text>
      )}
      <ClaimTable
        label="Pending claims"
        claims={claims}
        page={page}
        pages={list.data?.pages ?? 1}
        onPage={setPage}
        loading={list.isPending}
        selected={selected}
        onSelect={
          canAssign.allowed
            ? (id, checked) => {
                const next = new Set(selected);
                if (checked) next.add(id);
                else next.delete(id);
                setSelected(next);
              }
            : undefined
        }
      />
      <BatchFailureModal failures={failures} total={total} itemColumn="Claim" onClose={() => setFailures([])} />
    </Stack>
  );
}
