import type { Subject } from './shapes.js';

/**
 * Imported AcroForm PDFs as both halves see them (docs/documents.md, "Imported PDF forms"). Each
 * field of the PDF is listed with its kind; the mapping says where each field's value comes from.
 */
export const FIELD_KINDS = ['text', 'checkbox', 'radio', 'dropdown', 'other'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A form field as read from the PDF with pdf-lib; `other` (a push button, a signature) can only be ignored. */
export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  /** The choices of a radio group or a dropdown; empty for the other kinds. */
  options: string[];
}

export const MAPPING_SOURCES = ['data_point', 'constant', 'ignored'] as const;
export type MappingSource = (typeof MAPPING_SOURCES)[number];

/** Where one field's value comes from. A checkbox constant is `checked` or `unchecked`. */
export type FieldMapping =
  { source: 'data_point'; path: string } | { source: 'constant'; value: string } | { source: 'ignored' };

/** Field name → its mapping; a field missing here is unmapped. */
export type FormMapping = Record<string, FieldMapping>;

export interface ImportedDocument {
  id: number;
  name: string;
  description: string;
  subject: Subject;
  folder_id: number;
  file_name: string;
  /** The form's edition as its issuer prints it (`ACORD 25 (2016/03)`); empty when not given. */
  edition: string;
  sha256: string;
  page_count: number;
  fields: FormField[];
  mapping: FormMapping;
  /** Required fields with no mapping: publishing is blocked while any is listed. */
  unmapped_required: string[];
  status: 'draft' | 'published';
  created_by: string;
  created_at: string;
  published_by: string | null;
  published_at: string | null;
}

export interface FormPreview {
  page_count: number;
  /** Data-point paths that had no value in the data; their fields are left empty. */
  unresolved_paths: string[];
  pdf_base64: string;
}

/** Required fields that the mapping leaves unmapped (ignoring a required field does not count as mapping it). */
export function unmappedRequired(fields: FormField[], mapping: FormMapping): string[] {
  return fields
    .filter((f) => f.required && (!mapping[f.name] || mapping[f.name]!.source === 'ignored'))
    .map((f) => f.name);
}

/** A checkbox is checked by a value that is present and not false/no/0/unchecked. */
export function isChecked(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  const text = String(value).trim().toLowerCase();
  return !['', 'false', 'no', '0', 'off', 'unchecked'].includes(text);
}
