/**
 * The typed services the documents module provides to other modules (docs/documents.md, "Services"),
 * as `GET /api/documents/services/` lists them for integrators: read-only, one entry per service ref.
 * A module calls them in-process (`context.optionalService(REF)`); there is no HTTP call behind them.
 */
export interface DocumentServiceEntry {
  /** The service ref's id, as `createServiceRef` names it. */
  id: string;
  name: string;
  description: string;
  /** Where the ref is imported from. */
  import_from: string;
  ref: string;
  methods: { name: string; does: string }[];
  /** What the documents rendered through it are written for. */
  subjects: string[];
  /** The modules that call it today. */
  used_by: string[];
}

export const DOCUMENT_SERVICES: DocumentServiceEntry[] = [
  {
    id: 'documents.declarations',
    name: 'Render declarations',
    description:
      "A policy revision's declarations: the line's dec page in the version effective on the revision's date, then the forms the form rules attach, merged into one PDF and kept as a production document.",
    import_from: '@atrium/plugin-documents/services',
    ref: 'DOCUMENT_DECLARATIONS',
    methods: [{ name: 'declarationsFor', does: 'The stored declarations of a revision, or produced now.' }],
    subjects: ['policy'],
    used_by: ['policies'],
  },
  {
    id: 'documents.quote-documents',
    name: 'Render quote documents',
    description:
      "A quote's documents (templates written for a quote, such as Quote summary): rendered with the quote's data, kept as production documents and e-mailed through the platform mail service.",
    import_from: '@atrium/plugin-documents/quote-documents',
    ref: 'DOCUMENT_QUOTE_DOCUMENTS',
    methods: [
      { name: 'listFor', does: 'The quote documents that can be made, with the latest of each and its e-mail.' },
      { name: 'produce', does: 'Renders a quote document now and, with an address, e-mails it.' },
    ],
    subjects: ['quote'],
    used_by: ['quote'],
  },
];
