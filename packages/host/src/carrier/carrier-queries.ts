import { useQuery } from '@tanstack/react-query';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { isAgentRole } from '../auth/agent-role.js';

/** The carrier running this portal: public, shown in the top bar and on the sign-in page. */
export interface CarrierSummary {
  name: string;
  website: string | null;
  logo_url: string | null;
}

export interface CarrierMetadata {
  live_status: boolean;
  live_status_description: string;
  claim_prefix: string;
  policy_prefix: string;
}

async function getEnvelope<T>(path: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json', ...headers } });
  if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}`);
  const body = (await response.json()) as { success?: boolean; data: T };
  return body.data;
}

export function useCarrier() {
  return useQuery({
    queryKey: ['carrier', 'primary'],
    queryFn: () => getEnvelope<CarrierSummary>('/api/v2/insured/get_primary_carrier', {}),
    staleTime: Infinity,
  });
}

/**
 * The carrier's metadata (live status, number prefixes). Only asked for signed-in carrier staff:
 * the call needs a session, and agents never see the live-site banner.
 */
export function useCarrierMetadata() {
  const runtime = useHostRuntime();
  const signedIn = useRuntimeStore(
    (r) => r.auth,
    (s) => s.session !== null,
  );
  const role = useRuntimeStore(
    (r) => r.auth,
    (s) => s.effectiveRole,
  );
  return useQuery({
    queryKey: ['carrier', 'meta', role],
    queryFn: () => getEnvelope<CarrierMetadata>('/api/v2/utils/meta', runtime.requestHeaders()),
    enabled: signedIn && !isAgentRole(role),
    staleTime: 5 * 60_000,
  });
}
