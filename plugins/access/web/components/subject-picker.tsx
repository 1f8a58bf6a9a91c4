import { MultiSelect } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';

/**
 * Picks existing users or groups of user management (identity's JSON:API) with search as you type:
 * only what exists can be chosen, so a role is never given to a typo. Users are offered by name and
 * user name and chosen by user name; groups by name.
 */
const USER_MANAGEMENT_API = '/identity/user-management';
/** How many matches the list offers at a time; typing narrows them. */
export const PICKER_MATCHES = 20;
const DEBOUNCE_MS = 250;

export interface SubjectOption {
  value: string;
  label: string;
}

export type SubjectKind = 'users' | 'groups';

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function toSubjectOption(kind: SubjectKind, resource: JsonApiResource): SubjectOption {
  const a = resource.attributes ?? {};
  if (kind === 'groups') return { value: text(a.name), label: text(a.name) };
  const username = text(a.username);
  const name = text(a.name);
  return { value: username, label: name && name !== username ? `${name} (${username})` : username };
}

/** The users or groups matching `search` (part of a name, user name or e-mail; any case). */
export function useSubjectSearch(kind: SubjectKind, search: string) {
  const api = useApiClient();
  const term = useDebounced(search.trim(), DEBOUNCE_MS);
  return useQuery({
    queryKey: ['access-module', 'subject-search', kind, term],
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(`${USER_MANAGEMENT_API}/${kind}`, {
        jsonApi: true,
        query: {
          'page[size]': PICKER_MATCHES,
          sort: kind === 'users' ? 'username' : 'name',
          [kind === 'users' ? 'filter[search]' : 'filter[name]']: term || undefined,
        },
        signal,
      });
      return (document.data ?? []).map((resource) => toSubjectOption(kind, resource));
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

export function SubjectPicker({
  kind,
  label,
  value,
  onChange,
  miw = 320,
}: {
  kind: SubjectKind;
  label: string;
  value: string[];
  onChange(value: string[]): void;
  miw?: number;
}) {
  const [search, setSearch] = useState('');
  const matches = useSubjectSearch(kind, search);
  // Keep the chosen ones among the options, so that they stay shown while the search moves on.
  const [chosen, setChosen] = useState<Map<string, SubjectOption>>(new Map());
  const data = useMemo(() => {
    const byValue = new Map<string, SubjectOption>();
    for (const option of matches.data ?? []) byValue.set(option.value, option);
    for (const name of value)
      if (!byValue.has(name)) byValue.set(name, chosen.get(name) ?? { value: name, label: name });
    return [...byValue.values()];
  }, [matches.data, value, chosen]);
  return (
    <MultiSelect
      label={label}
      placeholder={kind === 'users' ? 'Search users by name or e-mail' : 'Search groups by name'}
      searchable
      miw={miw}
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // The server has already matched name, user name and e-mail: show what it found.
      filter={({ options }) => options}
      nothingFoundMessage={matches.isFetching ? 'Searching…' : kind === 'users' ? 'No such user.' : 'No such group.'}
      onChange={(next) => {
        const known = new Map(chosen);
        for (const option of data) if (next.includes(option.value)) known.set(option.value, option);
        setChosen(known);
        setSearch('');
        onChange(next);
      }}
    />
  );
}
