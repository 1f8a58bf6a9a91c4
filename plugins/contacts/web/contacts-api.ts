import type { ApiClient, JsonApiDocument, JsonApiResource } from '@atrium/sdk';

/** A contact as the screens use it: the JSON:API attributes, flat. */
export interface Contact {
  id: string;
  kind: 'person' | 'organization';
  name: string;
  roles: string[];
  addresses: { type?: string; line1?: string; line2?: string; city?: string; state?: string; zip?: string }[];
  phones: { type?: string; number: string }[];
  emails: { type?: string; address: string }[];
  website: string;
  dob: string | null;
  agency_id: string | null;
  ssn: string | null;
  has_ssn: boolean;
}

export interface ContactNote {
  id: string;
  text: string;
  created_by: string;
  created_at: string;
}
export interface ContactRelation {
  id: string;
  relation: string;
  contact_id: string;
  related_contact_id: string;
}
export interface ContactClaim {
  claimId: number;
  number: string;
  status: string;
  role: string;
  dateOfLoss: string | null;
  path: string;
}

const flat = <T>(r: JsonApiResource): T => {
  const out: Record<string, unknown> = { id: r.id, ...(r.attributes ?? {}) };
  for (const [name, value] of Object.entries(r.relationships ?? {})) {
    const data = (value as { data?: { id: string } | null } | null)?.data;
    out[`${name}_id`] = data ? data.id : null;
  }
  return out as T;
};
const all = <T>(doc: JsonApiDocument<JsonApiResource[]>) =>
  Array.isArray(doc.data) ? doc.data.map((r) => flat<T>(r)) : [];

/** Contacts whose name, e-mail or phone contains the text, within the caller's book. */
export async function searchContacts(api: ApiClient, q: string, limit: number, signal?: AbortSignal) {
  const doc = await api.get<JsonApiDocument<JsonApiResource[]>>('/contacts/search/', {
    jsonApi: true,
    signal,
    query: { q: q.trim(), limit },
  });
  return all<Contact>(doc);
}

export async function contactsPage(api: ApiClient, page: number, size: number) {
  const doc = await api.get<JsonApiDocument<JsonApiResource[]> & { meta?: { count?: number } }>('/contacts/contacts/', {
    jsonApi: true,
    query: { 'page[number]': page, 'page[size]': size, sort: 'name' },
  });
  return { items: all<Contact>(doc), count: Number(doc.meta?.count ?? 0) };
}

export async function findContact(api: ApiClient, id: string) {
  const doc = await api.get<JsonApiDocument<JsonApiResource>>(`/contacts/contacts/${encodeURIComponent(id)}/`, {
    jsonApi: true,
  });
  return flat<Contact>(doc.data as JsonApiResource);
}

export async function contactsById(api: ApiClient, ids: string[]) {
  const found = await Promise.all(
    [...new Set(ids)].map((id) =>
      findContact(api, id).then(
        (c) => c,
        () => null,
      ),
    ),
  );
  return new Map(found.filter((c): c is Contact => c !== null).map((c) => [c.id, c]));
}

export async function contactNotes(api: ApiClient, id: string) {
  const doc = await api.get<JsonApiDocument<JsonApiResource[]>>('/contacts/notes/', {
    jsonApi: true,
    query: { 'filter[contact]': id, sort: '-id' },
  });
  return all<ContactNote>(doc);
}

/** The contact's relations to others ("… · Agent of · Harbour Agency"). */
export async function contactRelations(api: ApiClient, id: string) {
  const doc = await api.get<JsonApiDocument<JsonApiResource[]>>('/contacts/relations/', {
    jsonApi: true,
    query: { 'filter[contact]': id },
  });
  return all<ContactRelation>(doc);
}

export async function contactClaims(api: ApiClient, id: string) {
  const body = await api.get<{ results: ContactClaim[] }>(`/contacts/contacts/${encodeURIComponent(id)}/claims/`);
  return body.results;
}

/** Contacts that may be the same one as `id` (same SSN, or same name with a shared e-mail, phone or birth date). */
export async function contactDuplicates(api: ApiClient, id: string) {
  const doc = await api.get<JsonApiDocument<JsonApiResource[]>>(
    `/contacts/contacts/${encodeURIComponent(id)}/duplicates/`,
    { jsonApi: true },
  );
  return all<Contact>(doc);
}

/** Merges `duplicateId` into `id`; answers the survivor. */
export async function mergeContact(api: ApiClient, id: string, duplicateId: string) {
  const doc = await api.post<JsonApiDocument<JsonApiResource>>(
    `/contacts/contacts/${encodeURIComponent(id)}/merge/`,
    { data: { type: 'contact-merge', attributes: { duplicate_id: duplicateId } } },
    { jsonApi: true },
  );
  return flat<Contact>(doc.data as JsonApiResource);
}

export interface ContactMerge {
  duplicate_id: string;
  duplicate_name: string;
  survivor_id: string;
  survivor_name: string;
  merged_by: string;
  merged_at: string;
}

/** Where a merged contact went, or null when `id` was never merged (or its survivor is not the caller's to read). */
export async function contactMergedInto(api: ApiClient, id: string): Promise<ContactMerge | null> {
  return api.get<ContactMerge>(`/contacts/merges/${encodeURIComponent(id)}/`).catch(() => null);
}

export interface ContactActivity {
  action: string;
  entity_type: string;
  entity_id: string;
  username: string;
  at: string;
}

export async function contactActivity(api: ApiClient, id: string) {
  const body = await api.get<{ data: ContactActivity[] }>(`/contacts/contacts/${encodeURIComponent(id)}/activity/`);
  return body.data;
}

/** Relates `contactId` to `relatedId` ("Sam Reed · Spouse · Robin Reed"). */
export async function addRelation(api: ApiClient, contactId: string, relatedId: string, relation: string) {
  await api.post(
    '/contacts/relations/',
    {
      data: {
        type: 'contact-relation',
        attributes: { relation },
        relationships: {
          contact: { data: { type: 'contact', id: contactId } },
          related_contact: { data: { type: 'contact', id: relatedId } },
        },
      },
    },
    { jsonApi: true },
  );
}

export async function removeRelation(api: ApiClient, id: string) {
  await api.delete(`/contacts/relations/${encodeURIComponent(id)}/`, { jsonApi: true });
}
