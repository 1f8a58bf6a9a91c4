import { useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { flattenAll, resourceBody } from './jsonapi.js';

/**
 * Claim outbound e-mail as the activity sidebar panel uses it (docs/claims-screens.md): the claim's
 * mails with their delivery status, recipient suggestions, the files a mail can carry, and compose.
 */
const emails = (claimId: string) => `/claims/claims/${claimId}/emails/`;
export const EMAIL_PATHS = {
  emails,
  recipients: (claimId: string) => `${emails(claimId)}recipients/`,
  attachments: (claimId: string) => `${emails(claimId)}attachments/`,
  sendAgain: (claimId: string, emailId: string) => `${emails(claimId)}${emailId}/send-again/`,
} as const;

/** Spec: "Contact email search starts at 3 characters". */
export const CONTACT_SEARCH_MIN_LENGTH = 3;

export type EmailStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface ClaimEmail {
  id: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  created_by: string;
  created_at: string;
  attachments: { filename: string; size: number; attachment_id: string | null }[];
}

export interface ClaimEmails {
  emails: ClaimEmail[];
  /** False while the server has no SMTP server: mails wait in the outbox. */
  mailConfigured: boolean;
}

export interface RecipientSuggestion {
  email: string;
  name: string;
  source: 'party' | 'contact';
  role: string | null;
}

export interface AttachableFile {
  id: string;
  name: string;
  size: number;
  folder: string;
}

export interface ComposedEmail {
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  attachment_ids: string[];
}

export const emailKeys = {
  list: (claimId: string) => ['claims-module', 'emails', claimId] as const,
  recipients: (claimId: string, search: string) => ['claims-module', 'email-recipients', claimId, search] as const,
  attachments: (claimId: string) => ['claims-module', 'email-attachments', claimId] as const,
};

/** A mail still on its way (queued, sending, or failed with a retry planned). */
export const inFlight = (mail: ClaimEmail) =>
  mail.status === 'queued' || mail.status === 'sending' || (mail.status === 'failed' && !!mail.next_attempt_at);

export function useClaimEmails(claimId: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: emailKeys.list(claimId ?? ''),
    enabled: !!claimId,
    queryFn: async ({ signal }): Promise<ClaimEmails> => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(EMAIL_PATHS.emails(claimId!), {
        jsonApi: true,
        signal,
      });
      return {
        emails: flattenAll(document) as unknown as ClaimEmail[],
        mailConfigured: document.meta?.mail_configured !== false,
      };
    },
    // Follow mails on their way until they are sent or given up: a configured server sends in
    // seconds; a planned retry may be minutes away.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data?.mailConfigured) return false;
      if (data.emails.some((m) => m.status === 'queued' || m.status === 'sending')) return 3000;
      return data.emails.some(inFlight) ? 30_000 : false;
    },
  });
}

/** Parties of the claim always; contacts once the search has CONTACT_SEARCH_MIN_LENGTH characters. */
export function useRecipientSuggestions(claimId: string | undefined, search: string, enabled: boolean) {
  const api = useApiClient();
  const term = search.trim().length >= CONTACT_SEARCH_MIN_LENGTH ? search.trim() : '';
  return useQuery({
    queryKey: emailKeys.recipients(claimId ?? '', term),
    enabled: !!claimId && enabled,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(EMAIL_PATHS.recipients(claimId!), {
        jsonApi: true,
        signal,
        query: term ? { 'filter[search]': term } : {},
      });
      return flattenAll(document) as unknown as RecipientSuggestion[];
    },
  });
}

export function useAttachableFiles(claimId: string | undefined, enabled: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: emailKeys.attachments(claimId ?? ''),
    enabled: !!claimId && enabled,
    retry: false,
    queryFn: async ({ signal }) => {
      const document = await api.get<JsonApiDocument<JsonApiResource[]>>(EMAIL_PATHS.attachments(claimId!), {
        jsonApi: true,
        signal,
      });
      return flattenAll(document) as unknown as AttachableFile[];
    },
  });
}

export async function sendClaimEmail(api: ApiClient, claimId: string, mail: ComposedEmail): Promise<void> {
  await api.post(
    EMAIL_PATHS.emails(claimId),
    resourceBody('claim-email', {
      to: mail.to,
      ...(mail.cc.length ? { cc: mail.cc } : {}),
      subject: mail.subject,
      body: mail.body,
      ...(mail.attachment_ids.length ? { attachment_ids: mail.attachment_ids } : {}),
    }),
    { jsonApi: true },
  );
}

/** A mail that failed for good, queued again (`send-again/`). */
export async function sendClaimEmailAgain(api: ApiClient, claimId: string, emailId: string): Promise<void> {
  await api.post(EMAIL_PATHS.sendAgain(claimId, emailId), undefined, { jsonApi: true });
}
