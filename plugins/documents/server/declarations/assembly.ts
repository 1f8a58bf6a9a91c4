import { PDFDocument } from 'pdf-lib';
import type { FormMapping } from '../../shared/forms.js';
import { documentDay, fillForm } from '../forms/acroform.js';
import type { RenderFile } from '../library/inputs.js';
import type { RenderPool } from '../render/pool.js';
import { renderOn } from '../render/shared-pool.js';

/**
 * Assembling a document: the template's pages, then each attached imported form filled and
 * flattened, merged into one PDF with pdf-lib. pdf-lib stamps "now" unless told otherwise, so the
 * merged PDF carries the document's own date and the same inputs give the same bytes.
 */
export interface AssemblyPart {
  imported_document_id: number;
  name: string;
  /** The mapping the form was filled by (a published form's mapping is frozen; kept for the record). */
  mapping: FormMapping;
}

export async function mergePdfs(pdfs: Uint8Array[], isoDay: string, title: string): Promise<Buffer> {
  const merged = await PDFDocument.create({ updateMetadata: false });
  for (const bytes of pdfs) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false });
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
  }
  const day = documentDay(isoDay);
  merged.setCreationDate(day);
  merged.setModificationDate(day);
  merged.setProducer('Atrium documents (Typst, pdf-lib)');
  merged.setTitle(title);
  return Buffer.from(await merged.save({ useObjectStreams: false }));
}

/** Renders the template to PDF and merges the filled forms after it (none: the template's PDF as rendered). */
export async function assemble(
  pool: RenderPool,
  job: {
    source: string;
    data: unknown;
    date: string;
    title: string;
    parts: AssemblyPart[];
    formPdf: (id: number) => Promise<Uint8Array>;
    files?: RenderFile[];
  },
): Promise<{ pdf: Buffer; pageCount: number }> {
  const rendered = await renderOn(pool, {
    source: job.source,
    data: job.data,
    format: 'pdf',
    date: job.date,
    files: job.files,
  });
  if (job.parts.length === 0) return { pdf: rendered.pdf!, pageCount: rendered.pageCount };
  const pdfs: Uint8Array[] = [rendered.pdf!];
  let pageCount = rendered.pageCount;
  for (const part of job.parts) {
    const filled = await fillForm(await job.formPdf(part.imported_document_id), part.mapping, job.data, job.date);
    pdfs.push(filled.pdf);
    pageCount += filled.pageCount;
  }
  return { pdf: await mergePdfs(pdfs, job.date, job.title), pageCount };
}
