import { createServiceRef, type Queryable } from '@atrium/sdk/server';

/**
 * The documents module's typed services (docs/documents.md, "Declarations"). Policies asks for a
 * revision's declarations through DOCUMENT_DECLARATIONS; documents owns every table involved.
 */
export interface DeclarationsRequest {
  /** What the declarations are of: the policy revision's id. One production document per key. */
  key: string;
  /** The line's product slug (`homeowners`), which the settings map to a dec page template. */
  line: string;
  /** The policy's state (`ME`), for form rules limited to a state. */
  state: string | null;
  /** The document's own date (the revision's date): it picks the template version and dates the PDF. */
  documentDate: string;
  /** A renewal term: only forms marked "always print on renewal" print. */
  renewal: boolean;
  /**
   * What the revision is, for form-inclusion rules (`transaction_type()`). Optional: without it a
   * renewal term is `renewal`, a revision dated on the term's start (`policy.term_start`)
   * `new_business`, any other `change`.
   */
  transaction?: 'new_business' | 'change' | 'renewal';
  /** A mortgagee is on the policy: forms marked "applies when a mortgagee is on the policy" print. */
  hasMortgagee: boolean;
  /** The data the dec page and the forms are filled from (the data-point catalogue's `policy`, `agency`). */
  data: Record<string, unknown>;
  /** The policy whose scope reads of the document follow. */
  record: { id: string; agentContactId: string | null; agencyContactId: string | null };
  createdBy: string;
}

export type DeclarationsFile =
  | {
      fileId: number;
      title: string;
      mimeType: 'application/pdf';
      /** Where the PDF is read: `/api/documents/production-documents/{id}/pdf/`. */
      url: string;
      sha256: string;
      pageCount: number;
      /** The imported forms merged after the dec page, by name. */
      forms: string[];
    }
  | { fileId: null; detail: string };

export type DeclarationsService = {
  /** The revision's declarations: the stored production document, or produced now (dec page + forms, merged). */
  declarationsFor(tx: Queryable, request: DeclarationsRequest): Promise<DeclarationsFile>;
};

export const DOCUMENT_DECLARATIONS = createServiceRef<DeclarationsService>('documents.declarations');

/**
 * What documents asks of the policies module when a policy is issued (the `policies.policy.issued`
 * event names only the policy): the declarations request of the policy's first revision, in the
 * data-point catalogue's shape, or null when there is no such policy. Policies provides it (it owns
 * the policy tables and knows their shape); documents only reads it, through `optionalService`.
 */
export type DeclarationsSource = {
  declarationsRequestFor(
    tx: Queryable,
    input: { policyId: string; createdBy: string },
  ): Promise<DeclarationsRequest | null>;
};

export const POLICY_DECLARATIONS_SOURCE = createServiceRef<DeclarationsSource>('policies.declarations-source');
