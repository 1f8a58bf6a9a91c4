import type { NoteRecordType } from '../shared/note-schemas.js';

/**
 * Which record a page shows, read from its route parameters: the notes panel writes notes on it.
 * The notes module keeps no reference into other modules: it only knows how their record pages name
 * their record in the URL. A module whose record page uses another parameter adds it here.
 */
const RECORD_PARAMS: { param: string; type: NoteRecordType }[] = [
  { param: 'claimNumber', type: 'claim' },
  { param: 'policyNumber', type: 'policy' },
  { param: 'policyId', type: 'policy' },
  { param: 'quoteNumber', type: 'quote' },
  { param: 'quoteId', type: 'quote' },
  { param: 'contactId', type: 'contact' },
];

export function recordOfParams(
  params: Readonly<Record<string, string | undefined>>,
): { type: NoteRecordType; id: string } | null {
  for (const { param, type } of RECORD_PARAMS) {
    const id = params[param]?.trim();
    if (id) return { type, id };
  }
  return null;
}

/** The record pages of the modules installed today (route names), where the Notes panel is offered. */
export const RECORD_ROUTE_NAMES = [
  'claims:loss-detail',
  'claims:exposures',
  'claims:claimants:exposures:details',
  'claims:accounting',
  'claims:parties',
  'claims:attachments',
  'claims:injury-summary',
  'claims:risks:types',
  'contacts:contact',
  'policies:policy',
  'policies:information',
  'quote:page',
];

export const ON_RECORD_PAGE = RECORD_ROUTE_NAMES.map((name) => `route == "${name}"`).join(' || ');
