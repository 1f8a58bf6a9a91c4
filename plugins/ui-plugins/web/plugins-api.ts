import { useQuery } from '@tanstack/react-query';
import { isApiRequestError, useApiClient } from '@atrium/sdk';

/** A plugin record as the screens use it (JSON:API `plugin` flattened). */
export interface PluginRecord {
  id: string;
  name: string;
  plugin_slots: { slot_name: string; plugin_file_path: string | null }[];
  base_url: string | null;
  configuration: Record<string, unknown>;
  content: string | null;
  enabled: boolean;
  capabilities: string[];
  configuration_schema: Record<string, unknown> | null;
  /** Commands offered in the palette (docs/third-party-plugins.md "In the palette"). */
  palette_commands: unknown[];
  palette_search: boolean;
  files: { path: string; content_type: string; size: number }[];
  date_updated: string;
}

export const pluginKeys = { list: ['ui-plugins', 'list'] as const };
export const PLUGINS_PATH = '/integrations/plugins/';

export function usePlugins() {
  const api = useApiClient();
  return useQuery({
    queryKey: pluginKeys.list,
    queryFn: async () => {
      const body = await api.get<{ data: { id: string; attributes: Omit<PluginRecord, 'id'> }[] }>(PLUGINS_PATH, {
        jsonApi: true,
      });
      return body.data.map((r) => ({ id: r.id, ...r.attributes }));
    },
  });
}

/** The server's first problem detail, or the screen's fallback message. */
export function firstDetail(error: unknown, fallback: string): string {
  if (isApiRequestError(error) && error.status !== 0 && error.errors[0]?.detail) return error.errors[0].detail;
  return fallback;
}
