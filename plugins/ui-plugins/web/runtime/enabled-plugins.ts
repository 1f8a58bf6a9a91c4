import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '@atrium/sdk';

/** An enabled plugin as the slot runtime loads it (`GET /integrations/plugins/enabled`). */
export interface EnabledPlugin {
  id: string;
  name: string;
  slot_name: string;
  slot_label: string;
  registered_slot_name: string;
  src: string;
  configuration: Record<string, unknown>;
  /** What the record grants (docs/third-party-plugins.md "Capabilities"). */
  capabilities: string[];
}

export function useEnabledPlugins(slot: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['ui-plugins', 'enabled', slot],
    queryFn: async () =>
      (await api.get<{ data: EnabledPlugin[] }>('/integrations/plugins/enabled', { query: { slot } })).data,
    staleTime: 60_000,
  });
}
