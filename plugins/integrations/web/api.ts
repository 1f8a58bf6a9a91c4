import { useQuery } from '@tanstack/react-query';
import { isApiRequestError, useApiClient } from '@atrium/sdk';

/** Server state of the Integrations screens (TanStack Query keys under `['integrations', …]`). */
export interface Subscription {
  id: string;
  url: string;
  events: string[];
  description: string;
  status: 'pending' | 'active' | 'disabled';
  disabled_reason: string | null;
  created_by: string;
  date_created: string;
  secret_rotating: boolean;
}

export interface AttemptLog {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string;
  error: string | null;
  succeeded: boolean;
  next_retry_at: string | null;
  trigger: string;
}

export interface Message {
  id: string;
  event_id: string;
  topic: string;
  test: boolean;
  status: string;
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  date_created: string;
  payload: unknown;
  attempt_log: AttemptLog[];
}

export interface ExceptionItem {
  id: string;
  module: string;
  kind: string;
  reason: string;
  payload: Record<string, unknown>;
  attempts: number;
  reference: string | null;
  retryable: boolean;
  status: string;
  dismiss_reason: string | null;
  resolved_by: string | null;
  date_created: string;
}

export interface OutboxEvent {
  position: number;
  event_id: string;
  event_date: string;
  schema_id: string;
  version: string;
  topic: string;
  triggering_user: string;
  data: unknown;
}

export interface CatalogueEntry {
  topic: string;
  schema_id: string;
  version: string;
  description: string;
  plugin: string;
  json_schema: Record<string, unknown>;
}

type Resource<A> = { id: string; attributes: A };
const flat = <A>(r: Resource<A>) => ({ id: r.id, ...r.attributes });

export const keys = {
  subscriptions: ['integrations', 'subscriptions'] as const,
  subscription: (id: string) => ['integrations', 'subscriptions', id] as const,
  messages: (id: string) => ['integrations', 'subscriptions', id, 'messages'] as const,
  exceptions: ['integrations', 'exceptions'] as const,
  outbox: ['integrations', 'outbox'] as const,
  catalogue: ['integrations', 'catalogue'] as const,
  stats: ['integrations', 'stats'] as const,
};

export function useSubscriptions() {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.subscriptions,
    queryFn: async () => {
      const body = await api.get<{ data: Resource<Omit<Subscription, 'id'>>[] }>('/events/subscriptions', {
        jsonApi: true,
      });
      return body.data.map(flat) as Subscription[];
    },
    // A new subscription turns active within moments; keep the list fresh while one is starting.
    refetchInterval: (query) => (query.state.data?.some((s) => s.status === 'pending') ? 2000 : false),
  });
}

export function useSubscription(id: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.subscription(id),
    queryFn: async () =>
      flat(
        (await api.get<{ data: Resource<Omit<Subscription, 'id'>> }>(`/events/subscriptions/${id}`, { jsonApi: true }))
          .data,
      ) as Subscription,
  });
}

export function useMessages(id: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: keys.messages(id),
    queryFn: async () => {
      const body = await api.get<{ data: Resource<Omit<Message, 'id'>>[] }>(`/events/subscriptions/${id}/messages`, {
        jsonApi: true,
      });
      return body.data.map(flat) as Message[];
    },
    refetchInterval: (query) =>
      query.state.data?.some((m) => m.status === 'pending' || m.status === 'retrying') ? 2000 : 10_000,
  });
}

/** The server's first error detail, or the screen's default message (spec, "Messages"). */
export function firstDetail(error: unknown, fallback: string): string {
  if (isApiRequestError(error) && error.status !== 0 && error.errors[0]?.detail) return error.errors[0].detail;
  return fallback;
}

export interface MappingValue {
  language: 'jsonata';
  expression: string;
  sample?: unknown;
}

export interface DataMapping {
  id: string;
  from: string;
  to: string;
  version: number;
  mapping: MappingValue;
  status: 'draft' | 'published';
  created_by: string;
  date_created: string;
  date_published: string | null;
}

export interface MappingPreview {
  result: unknown;
  warnings: string[];
  error: string | null;
}

export const mappingKeys = {
  all: ['integrations', 'mappings'] as const,
  one: (id: string) => ['integrations', 'mappings', id] as const,
  pair: (from: string, to: string) => ['integrations', 'mappings', 'pair', from, to] as const,
};

export const MAPPINGS_FETCH_ERROR =
  'An error occurred while fetching data mappings. Please refresh the page and try again.';

export function useMappings() {
  const api = useApiClient();
  return useQuery({
    queryKey: mappingKeys.all,
    queryFn: async () =>
      (
        await api.get<{ data: Resource<Omit<DataMapping, 'id'>>[] }>('/datamapping/mappings/', { jsonApi: true })
      ).data.map(flat) as DataMapping[],
  });
}

export function useMapping(id: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: mappingKeys.one(id),
    queryFn: async () =>
      flat(
        (await api.get<{ data: Resource<Omit<DataMapping, 'id'>> }>(`/datamapping/mappings/${id}`, { jsonApi: true }))
          .data,
      ) as DataMapping,
  });
}

/** Every version of one (from, to) pair, newest first: the diff compares against the newest published. */
export function useMappingVersions(from: string | undefined, to: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: mappingKeys.pair(from ?? '', to ?? ''),
    enabled: Boolean(from && to),
    queryFn: async () => {
      const query = new URLSearchParams({ 'filter[from]': from!, 'filter[to]': to! });
      return (
        await api.get<{ data: Resource<Omit<DataMapping, 'id'>>[] }>(`/datamapping/mappings/?${query}`, {
          jsonApi: true,
        })
      ).data.map(flat) as DataMapping[];
    },
  });
}

export const mappingDocument = (attributes: Record<string, unknown>, id?: string) => ({
  data: { type: 'mapping', ...(id ? { id } : {}), attributes },
});

export interface IntegrationStepRun {
  position: number;
  name: string;
  type: string;
  status: 'succeeded' | 'failed';
  input: unknown;
  output: unknown;
  error: string | null;
  attempts: number;
  started_at: string;
  finished_at: string | null;
}

export interface IntegrationRun {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** manual (Run now) or event */
  trigger: string;
  event_id: string | null;
  triggered_by: string;
  input: unknown;
  started_at: string;
  finished_at: string | null;
  steps: IntegrationStepRun[];
}

export interface Integration {
  id: string;
  name: string;
  author: string;
  category: string;
  events: string[];
  definition: {
    steps: ({ name: string; type: 'map'; from: string; to: string } | { name: string; type: 'http'; url: string })[];
  };
  status: string;
  messages: string[];
  date_created: string;
}

export const integrationKeys = {
  all: ['integrations', 'integrations'] as const,
  one: (id: string) => ['integrations', 'integrations', id] as const,
  runs: (id: string) => ['integrations', 'integrations', id, 'runs'] as const,
};

export const INTEGRATIONS_FETCH_ERROR =
  'An error occurred while fetching integrations. Please refresh the page and try again.';

export function useIntegrations() {
  const api = useApiClient();
  return useQuery({
    queryKey: integrationKeys.all,
    queryFn: async () =>
      (
        await api.get<{ data: Resource<Omit<Integration, 'id'>>[] }>('/integrations/integrations', { jsonApi: true })
      ).data.map(flat) as Integration[],
  });
}

/** Integration ids are UUIDs: anything else in the address is not one, and is not asked for. */
export const isIntegrationId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export function useIntegration(id: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: integrationKeys.one(id),
    enabled: isIntegrationId(id),
    queryFn: async () =>
      flat(
        (
          await api.get<{ data: Resource<Omit<Integration, 'id'>> }>(`/integrations/integrations/${id}`, {
            jsonApi: true,
          })
        ).data,
      ) as Integration,
  });
}

/**
 * An integration's runs; while it listens to events (runs may start at any moment) or a run is under
 * way, asked again every few seconds.
 */
export function useIntegrationRuns(id: string, listening = false) {
  const api = useApiClient();
  return useQuery({
    queryKey: integrationKeys.runs(id),
    enabled: isIntegrationId(id),
    refetchInterval: (query) =>
      listening || query.state.data?.some((r) => r.status === 'queued' || r.status === 'running') ? 3000 : false,
    queryFn: async () =>
      (
        await api.get<{ data: Resource<Omit<IntegrationRun, 'id'>>[] }>(`/integrations/integrations/${id}/runs`)
      ).data.map(flat) as IntegrationRun[],
  });
}
