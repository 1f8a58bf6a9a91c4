import {
  PDFCheckBox,
  PDFDocument,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFRef,
  PDFTextField,
  type PDFField,
} from 'pdf-lib';
import { isChecked, type FieldKind, type FormField, type FormMapping } from '../../shared/forms.js';

/**
 * Reading and filling imported AcroForm PDFs with pdf-lib (docs/documents.md, "Imported PDF forms").
 * pdf-lib stamps "now" as the creation and modification dates unless told otherwise, so every PDF
 * written here carries the document's own date and the same inputs give the same bytes.
 */

/** Why a PDF cannot be imported or filled; the routes answer it as a 422 in these words. */
export class FormError extends Error {}

function kindOf(field: PDFField): FieldKind {
  if (field instanceof PDFTextField) return 'text';
  if (field instanceof PDFCheckBox) return 'checkbox';
  if (field instanceof PDFRadioGroup) return 'radio';
  // A list box is a dropdown that shows its options open; both select one option here.
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) return 'dropdown';
  return 'other';
}

/** Loads a PDF, answering a FormError (not a pdf-lib stack) when it is not one or is encrypted. */
export async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new FormError('The file is not a PDF.');
  }
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/encrypt/i.test(message)) throw new FormError('The PDF is encrypted; import an unencrypted copy.');
    throw new FormError('The PDF could not be read; it may be damaged.');
  }
}

/** Every field of the PDF's form, in the PDF's own order. */
export async function readFields(bytes: Uint8Array): Promise<{ fields: FormField[]; pageCount: number }> {
  const pdf = await loadPdf(bytes);
  const fields = pdf
    .getForm()
    .getFields()
    .map((field): FormField => {
      const kind = kindOf(field);
      const options =
        field instanceof PDFRadioGroup || field instanceof PDFDropdown || field instanceof PDFOptionList
          ? field.getOptions()
          : [];
      return { name: field.getName(), kind, required: field.isRequired(), options };
    });
  return { fields, pageCount: pdf.getPageCount() };
}

/** The value at a data-point path (`policy.insured.name`), or undefined when any step is missing. */
export function resolvePath(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(step in value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * pdf-lib's flatten deletes the widgets but can leave their references in a page's /Annots when the
 * widget has no /P entry (forms that pdf-lib made itself among them); poppler then reports invalid
 * xref entries. Drop every annotation reference that no longer resolves.
 */
function dropDanglingAnnotations(pdf: PDFDocument) {
  for (const page of pdf.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const entry = annots.get(i);
      if (entry instanceof PDFRef && !pdf.context.lookup(entry)) annots.remove(i);
    }
  }
}

/** A PDF date for a document's own day, midnight UTC (never the time it is written). */
export const documentDay = (isoDay: string) => new Date(`${isoDay}T00:00:00Z`);

/**
 * Fills the form from the mapping and the data and flattens it (the fields become page content, so
 * the printed form cannot be edited). Unresolved data points leave their field empty and are
 * listed; a value that is not one of a radio group's or dropdown's options is a FormError.
 */
export async function fillForm(
  bytes: Uint8Array,
  mapping: FormMapping,
  data: unknown,
  isoDay: string,
): Promise<{ pdf: Buffer; pageCount: number; unresolvedPaths: string[] }> {
  const pdf = await loadPdf(bytes);
  const form = pdf.getForm();
  const unresolved = new Set<string>();
  for (const field of form.getFields()) {
    const rule = mapping[field.getName()];
    if (!rule || rule.source === 'ignored') continue;
    let value: unknown;
    if (rule.source === 'constant') value = rule.value;
    else {
      value = resolvePath(data, rule.path);
      if (value === undefined || value === null || typeof value === 'object') {
        unresolved.add(rule.path);
        continue;
      }
    }
    const text = String(value);
    try {
      if (field instanceof PDFTextField) field.setText(text);
      else if (field instanceof PDFCheckBox) {
        if (isChecked(value)) field.check();
        else field.uncheck();
      } else if (field instanceof PDFRadioGroup || field instanceof PDFDropdown || field instanceof PDFOptionList) {
        if (!field.getOptions().includes(text)) {
          throw new FormError(
            `"${text}" is not one of the options of the field "${field.getName()}" (${field.getOptions().join(', ')}).`,
          );
        }
        field.select(text);
      }
    } catch (error) {
      if (error instanceof FormError) throw error;
      // pdf-lib's standard font encodes WinAnsi only; say which field could not take the value.
      throw new FormError(`The field "${field.getName()}" cannot show the value "${text}".`);
    }
  }
  try {
    form.flatten();
  } catch {
    throw new FormError('The form could not be flattened; its fields may be damaged.');
  }
  dropDanglingAnnotations(pdf);
  const day = documentDay(isoDay);
  pdf.setCreationDate(day);
  pdf.setModificationDate(day);
  pdf.setProducer('Atrium documents (pdf-lib)');
  const out = await pdf.save({ updateFieldAppearances: false, useObjectStreams: false });
  return { pdf: Buffer.from(out), pageCount: pdf.getPageCount(), unresolvedPaths: [...unresolved].sort() };
}
