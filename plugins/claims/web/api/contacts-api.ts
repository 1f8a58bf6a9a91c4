import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  isApiRequestError,
  useApiClient,
  type ApiClient,
  type JsonApiDocument,
  type JsonApiResource,
} from '@atrium/sdk';
import { useLookup } from './claims-api.js';
import { flatten, flattenAll, resourceBody, text, type Flat } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The contacts integration (spec: /api/claims/integrations/contacts — GET '' with filters, GET/PUT
 * {id}/, POST '', {id}/notes/, address-by-zip/, validate-ssn/, allow-duplicate-ssn/, genders/,
 * address-types/, {id}/relations/) as the Parties tab uses it. Contacts come back with `has_ssn`,
 * `ssn_last4` and `ssn`: masked (`***-**-1234`), or in full when one contact is read by someone who
 * may read SSNs (claims:contact read-ssn). The form never sends a shown SSN back.
 */
const BASE = '/claims/integrations/contacts';
export const CONTACT_PATHS = {
  contacts: `${BASE}/`,
  contact: (id: string) => `${BASE}/${id}/`,
  notes: (id: string) => `${BASE}/${id}/notes/`,
  relations: (id: string) => `${BASE}/${id}/relations/`,
  addressByZip: `${BASE}/address-by-zip/`,
  validateSsn: `${BASE}/validate-ssn/`,
  allowDuplicateSsn: `${BASE}/allow-duplicate-ssn/`,
  genders: `${BASE}/genders/`,
  addressTypes: `${BASE}/address-types/`,
  partyRoles: '/claims/claim-party-roles/',
} as const;

/** Contacts are listed 10 at a time; an e-mail search starts at 3 characters (spec constants). */
export const CONTACT_PAGE_SIZE = 10;
export const EMAIL_SEARCH_MIN = 3;

export interface ContactFilters {
  name: string;
  email: string;
  phone: string;
}

const contactKeys = {
  all: ['claims-module', 'contacts'] as const,
  search: (filters: ContactFilters, page: number) => ['claims-module', 'contacts', 'search', filters, page] as const,
  one: (id: string) => ['claims-module', 'contacts', 'one', id] as const,
  part: (id: string, part: string) => ['claims-module', 'contacts', 'one', id, part] as const,
};
export { contactKeys };

/** The query the search sends: blank filters left out, an e-mail shorter than 3 characters too. */
export function contactSearchQuery(filters: ContactFilters, page: number): Record<string, string | number> {
  const query: Record<string, string | number> = {
    'page[number]': page,
    'page[size]': CONTACT_PAGE_SIZE,
    sort: 'name',
  };
  if (filters.name.trim()) query['filter[name]'] = filters.name.trim();
  if (filters.email.trim().length >= EMAIL_SEARCH_MIN) query['filter[email]'] = filters.email.trim();
  if (filters.phone.trim()) query['filter[phone]'] = filters.phone.trim();
  return query;
}

export function useContactSearch(filters: ContactFilters, page: number) {
  const api = useApiClient();
  return useQuery({
    queryKey: contactKeys.search(filters, page),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(CONTACT_PATHS.contacts, {
        jsonApi: true,
        signal,
        query: contactSearchQuery(filters, page),
      });
      return { contacts: flattenAll(document), count: document.meta?.count ?? 0, pages: document.meta?.pages ?? 1 };
    },
  });
}

export function useContact(id: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: contactKeys.one(id ?? ''),
    enabled: !!id,
    queryFn: async ({ signal }) =>
      flatten(
        (await api.get<JsonApiDocument<JsonApiResource>>(CONTACT_PATHS.contact(id!), { jsonApi: true, signal })).data,
      ),
  });
}

function useContactPart(id: string | null, part: 'notes' | 'relations') {
  const api = useApiClient();
  return useQuery({
    queryKey: contactKeys.part(id ?? '', part),
    enabled: !!id,
    queryFn: async ({ signal }) =>
      flattenAll(
        await api.get<JsonApiDocument<JsonApiResource[]>>(CONTACT_PATHS[part](id!), { jsonApi: true, signal }),
      ),
  });
}
export const useContactNotes = (id: string | null) => useContactPart(id, 'notes');
export const useContactRelations = (id: string | null) => useContactPart(id, 'relations');

export const useGenders = () => useLookup(CONTACT_PATHS.genders);
export const useAddressTypes = () => useLookup(CONTACT_PATHS.addressTypes);
export const usePartyRoles = () => useLookup(CONTACT_PATHS.partyRoles);

export function useAllowDuplicateSsn() {
  const api = useApiClient();
  return useQuery({
    queryKey: [...contactKeys.all, 'allow-duplicate-ssn'],
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      (
        await api.get<{ meta?: { allow_duplicate_ssn?: boolean } }>(CONTACT_PATHS.allowDuplicateSsn, {
          jsonApi: true,
          signal,
        })
      ).meta?.allow_duplicate_ssn === true,
  });
}

export interface Address {
  type: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  zip: string;
}

export interface ContactInput {
  kind: 'person' | 'organization';
  first_name: string;
  last_name: string;
  name: string;
  dob: string;
  email: string;
  phone: string;
  /** '' leaves the SSN on file as it is (the form starts blank, never with the one on file). */
  ssn: string;
  genderId: string;
  address: Address;
}

export const emptyAddress = (): Address => ({ type: '', line1: '', line2: '', city: '', state: '', zip: '' });

/** A contact as the form edits it (its first address; the SSN blank: a new one replaces it). */
export function contactInputOf(contact: Flat | null): ContactInput {
  const first = ((contact?.addresses as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
  return {
    kind: contact?.kind === 'organization' ? 'organization' : 'person',
    first_name: text(contact?.first_name),
    last_name: text(contact?.last_name),
    name: text(contact?.name),
    dob: text(contact?.dob).slice(0, 10),
    email: text(contact?.email),
    phone: text(contact?.phone),
    ssn: '',
    genderId: text(contact?.gender_id),
    address: { ...emptyAddress(), ...Object.fromEntries(Object.entries(first).map(([k, v]) => [k, text(v)])) },
  };
}

/** The person's name from first and last name; an organization keeps the name typed. */
export const displayName = (input: ContactInput) =>
  input.kind === 'person' ? `${input.first_name.trim()} ${input.last_name.trim()}`.trim() : input.name.trim();

/**
 * POST (new) or PUT (replace) a contact. The first address is replaced; further addresses the
 * contact has (entered elsewhere) are kept as they were.
 */
export async function saveContact(api: ApiClient, existing: Flat | null, input: ContactInput): Promise<Flat> {
  const address = Object.fromEntries(Object.entries(input.address).filter(([, v]) => v.trim() !== ''));
  const others = ((existing?.addresses as Record<string, unknown>[] | undefined) ?? []).slice(1);
  const attributes: Record<string, unknown> = {
    kind: input.kind,
    first_name: input.kind === 'person' ? input.first_name.trim() : '',
    last_name: input.kind === 'person' ? input.last_name.trim() : '',
    name: displayName(input),
    dob: input.dob || null,
    email: input.email.trim(),
    phone: input.phone.trim(),
    addresses: [...(Object.keys(address).length ? [address] : []), ...others],
  };
  if (input.ssn.trim()) attributes.ssn = input.ssn.trim();
  const relationships = { gender: input.genderId ? { type: 'gender', id: input.genderId } : null };
  const body = resourceBody('contact', attributes, { ...(existing ? { id: existing.id } : {}), relationships });
  const document = existing
    ? await api.put<JsonApiDocument<JsonApiResource>>(CONTACT_PATHS.contact(existing.id), body, { jsonApi: true })
    : await api.post<JsonApiDocument<JsonApiResource>>(CONTACT_PATHS.contacts, body, { jsonApi: true });
  return flatten(document.data);
}

export interface ZipAddress {
  city: string;
  county: string;
  state: string;
}

/** City, county and state of a 5-digit ZIP, or null when the server does not know it (404). */
export async function addressByZip(api: ApiClient, zip: string): Promise<ZipAddress | null> {
  try {
    const document = await api.get<JsonApiDocument<JsonApiResource>>(CONTACT_PATHS.addressByZip, {
      jsonApi: true,
      query: { zip },
    });
    const a = flatten(document.data);
    return { city: text(a.city), county: text(a.county), state: text(a.state) };
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

export interface SsnCheck {
  valid: boolean;
  duplicate: boolean;
  allowed: boolean;
}

export async function validateSsn(api: ApiClient, ssn: string, contactId: string | null): Promise<SsnCheck> {
  const document = await api.get<{ meta?: Partial<SsnCheck> }>(CONTACT_PATHS.validateSsn, {
    jsonApi: true,
    query: { ssn, ...(contactId ? { contact_id: contactId } : {}) },
  });
  return {
    valid: document.meta?.valid === true,
    duplicate: document.meta?.duplicate === true,
    allowed: document.meta?.allowed === true,
  };
}

/**
 * The contact becomes a party of the claim (`POST claims/parties/` with `contact_id`), numbered
 * after the claim's last party. Two people adding at once collide on the number (the server
 * refuses a taken display_number), so one retry with the next number follows.
 */
export async function addContactAsParty(
  api: ApiClient,
  claimId: string,
  contact: Flat,
  role: string,
  parties: Flat[],
): Promise<Flat> {
  const next = (taken: Flat[]) => Math.max(0, ...taken.map((p) => Number(p.display_number) || 0)) + 1;
  const post = (displayNumber: number) =>
    api.post<JsonApiDocument<JsonApiResource>>(
      PATHS.parties,
      resourceBody(
        'party',
        {
          name: text(contact.name),
          display_number: displayNumber,
          role,
          contact_id: Number(contact.id),
          phone: text(contact.phone) || null,
          email: text(contact.email) || null,
        },
        { relationships: { claim: { type: 'claim', id: claimId } } },
      ),
      { jsonApi: true },
    );
  try {
    return flatten((await post(next(parties))).data);
  } catch (error) {
    const taken = isApiRequestError(error) && error.errors.some((e) => e.pointer === '/data/attributes/display_number');
    if (!taken) throw error;
    const fresh = await api.jsonApiFetchAll(PATHS.parties, { query: { 'filter[claim]': claimId } });
    return flatten((await post(next(fresh.data.map(flatten)))).data);
  }
}
