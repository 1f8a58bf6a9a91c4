import { useQuery } from '@tanstack/react-query';
import { useApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { flattenAll, text } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * What the claim workspace's dialogs read besides the claim's own records: the claims users an
 * exposure or claim can be given to, and the status moves a claim may make now.
 */

export interface ClaimsUserOption {
  value: string;
  label: string;
}

/** `GET integrations/users/`: the users whose role may update claims (the server decides). */
export function useClaimsUsers(enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'claims-users'],
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<ClaimsUserOption[]> => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.users, { jsonApi: true, signal });
      return flattenAll(document).map((u) => ({
        value: text(u.username),
        label: text(u.name) ? `${text(u.name)} (${text(u.username)})` : text(u.username),
      }));
    },
  });
}

/** One allowed move (docs/claims.md, "Statuses and transitions") with the reasons it offers. */
export interface StatusMove {
  to_status: string;
  action: string;
  reason_required: boolean;
  /** The move's reason lookups (labels); empty: a free-text reason. */
  reasons: string[];
}

/** Rows of `GET claims/statuses/` (one per move and reason) folded into one entry per move. */
export function foldStatusMoves(rows: Record<string, unknown>[]): StatusMove[] {
  const moves = new Map<string, StatusMove>();
  for (const row of rows) {
    const to = text(row.to_status);
    const move = moves.get(to) ?? {
      to_status: to,
      action: text(row.action ?? row.label),
      reason_required: row.reason_required === true,
      reasons: [],
    };
    if (text(row.reason)) move.reasons.push(text(row.reason));
    moves.set(to, move);
  }
  return [...moves.values()];
}

/** The moves this claim may make from its current status, as the server resolves them (`?claim=`). */
export function useClaimStatusMoves(claimId: string, status: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'status-moves', claimId, status],
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.statuses, {
        jsonApi: true,
        signal,
        query: { claim: claimId },
      });
      return foldStatusMoves(flattenAll(document));
    },
  });
}
