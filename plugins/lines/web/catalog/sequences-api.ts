import { useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, field, LINES_API, listOf, num, str, versionQuery, type Json } from './api-shared.js';

/** Sequences of a product version: how policy and quote numbers are formed (server: catalog/sequence-routes.ts). */

export interface Sequence {
  id: number;
  name: string;
  label: string;
  prefix: string;
  suffix: string;
  padding: number;
  start: number;
  increment: number;
  nextValue: number;
  /** What the next number will look like, as the server formats it. */
  preview: string | null;
  inheritanceStatus: string | null;
}

/** What a sequence form sends (numbers are whole numbers, so plain numbers are exact). */
export interface SequenceValues {
  name: string;
  label: string;
  prefix: string;
  suffix: string;
  padding: number;
  start: number;
  increment: number;
  next_value?: number;
}

export const sequencePaths = {
  list: (p: number) => `${LINES_API}/products/${p}/sequences/`,
  one: (p: number, s: number) => `${LINES_API}/products/${p}/sequences/${s}/`,
};

export function toSequence(raw: unknown): Sequence {
  const r = asRecord(raw);
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label) ?? '',
    prefix: str(r.prefix) ?? '',
    suffix: str(r.suffix) ?? '',
    padding: num(r.padding) ?? 0,
    start: num(r.start) ?? 1,
    increment: num(r.increment) ?? 1,
    nextValue: num(field(r, 'next_value', 'nextValue')) ?? 1,
    preview: str(r.preview),
    inheritanceStatus: str(field(r, 'inheritance_status', 'inheritanceStatus')),
  };
}

export const sequencesKey = (productId: number, versionId: number) => ['lines', 'sequences', productId, versionId];

export function useSequences(productId: number, versionId: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: sequencesKey(productId, versionId),
    queryFn: async ({ signal }) =>
      listOf(await api.get<Json>(sequencePaths.list(productId), { query: versionQuery(versionId), signal })).map(
        toSequence,
      ),
  });
}

type Api = Pick<ApiClient, 'post' | 'put' | 'delete'>;
export const sequenceWrites = {
  create: (api: Api, p: number, v: number, values: SequenceValues) =>
    api.post<Json>(sequencePaths.list(p), values, { query: versionQuery(v) }),
  update: (api: Api, p: number, v: number, s: number, values: SequenceValues) =>
    api.put<Json>(sequencePaths.one(p, s), values, { query: versionQuery(v) }),
  remove: (api: Api, p: number, v: number, s: number) =>
    api.delete(sequencePaths.one(p, s), { query: versionQuery(v) }),
};
