import type { ApiClient } from '@atrium/sdk';
import type { SupportTicket } from '../shared/support-schemas.js';

export type { SupportTicket };

export interface TicketList {
  count: number;
  results: SupportTicket[];
}

export type TicketScope = 'mine' | 'all';
export type TicketStatusFilter = 'open' | 'closed' | 'all';

export const ticketKeys = {
  all: ['support', 'tickets'] as const,
  list: (scope: TicketScope, status: TicketStatusFilter) => ['support', 'tickets', scope, status] as const,
};

export const listTickets = (api: ApiClient, scope: TicketScope, status: TicketStatusFilter, signal?: AbortSignal) =>
  api.get<TicketList>('/support/tickets/', { query: { scope, status, page_size: 100 }, signal });

export const closeTicket = (api: ApiClient, id: number) => api.post<SupportTicket>(`/support/tickets/${id}/close/`);

export const attachmentPath = (ticketId: number, attachmentId: number) =>
  `/support/tickets/${ticketId}/attachments/${attachmentId}/content/`;
