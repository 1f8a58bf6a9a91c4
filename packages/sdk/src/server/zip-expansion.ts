import JSZip from 'jszip';
import { ApiError } from './http-problem.js';

/**
 * Zip bombs (docs/security.md, "Compressed uploads"): an XLSX workbook is a zip archive, and a few
 * megabytes of upload can declare — or really inflate to — gigabytes, or hold a million entries.
 * Before a module hands an uploaded archive to its parser (ExcelJS reads XLSX through JSZip, which
 * inflates every entry into memory and checks the sizes only afterwards), it checks the archive with
 * `checkZipExpansion`: the entry count and the sizes the central directory declares first, then the
 * real expansion, inflating entry by entry as a stream and stopping at the limit.
 */
export interface ZipExpansionLimits {
  /** Entries (files and folders) in the archive. */
  maxEntries: number;
  /** Bytes of all entries together once inflated. */
  maxExpandedBytes: number;
}

/**
 * Limits for XLSX uploads (imports, rate tables): a workbook has a few dozen entries and, under the
 * 10 MB upload limit, rarely expands past 50 MB. ExcelJS holds the whole workbook in memory several
 * times over, so 100 MB of XML is already the most a request should make it parse.
 */
export const XLSX_LIMITS: ZipExpansionLimits = { maxEntries: 1000, maxExpandedBytes: 100 * 1024 * 1024 };

export type ZipExpansionProblem = 'too_many_entries' | 'expands_too_large' | 'entry_larger_than_declared';

/**
 * An archive over a limit — a 413 naming the upload's form field (`file`), so that a route answers
 * it as it is thrown (`code` says which limit) — or one whose entry inflates past its declared size
 * (a 400: the archive is malformed, whatever the limits).
 */
export class ZipExpansionError extends ApiError {
  constructor(message: string, code: ZipExpansionProblem, field = 'file') {
    super(code === 'entry_larger_than_declared' ? 400 : 413, message, { source: { parameter: field }, code });
    this.name = 'ZipExpansionError';
  }
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * The size an entry's central-directory record declares (JSZip keeps it on the private `_data`;
 * undefined if a JSZip version stops doing so: the inflating check still holds). JSZip reads the
 * 32-bit field as a signed number, so a declaration of 2 GB or more comes out negative.
 */
function declaredSize(file: JSZip.JSZipObject): number | undefined {
  const size = (file as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  if (typeof size !== 'number' || Number.isNaN(size)) return undefined;
  return size < 0 ? size + 2 ** 32 : size;
}

/** Why inflating an entry stopped early. */
class Overrun extends Error {
  constructor(readonly code: 'expands_too_large' | 'entry_larger_than_declared') {
    super(code);
  }
}

/** Inflates one entry as a stream, counting; rejects (Overrun) as soon as it passes `allowed` bytes. */
function inflatedSize(file: JSZip.JSZipObject, allowed: number, declared: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = file.nodeStream('nodebuffer') as NodeJS.ReadableStream & { destroy?: () => void };
    let size = 0;
    let done = false;
    const stop = (error: Error | null) => {
      if (done) return;
      done = true;
      stream.removeAllListeners('data');
      stream.pause();
      stream.destroy?.();
      if (error) reject(error);
      else resolve(size);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (declared !== undefined && size > declared) stop(new Overrun('entry_larger_than_declared'));
      else if (size > allowed) stop(new Overrun('expands_too_large'));
    });
    stream.on('end', () => stop(null));
    // A corrupt entry is the parser's to report, in its own words.
    stream.on('error', () => stop(null));
  });
}

/**
 * Throws ZipExpansionError (413 at `field`) when `data`, a zip archive, holds more than `limits.maxEntries` entries
 * or expands (as declared, or in fact) to more than `limits.maxExpandedBytes`. An archive that cannot
 * be read at all passes: the parser that follows says what is wrong with it.
 */
export async function checkZipExpansion(
  data: Buffer | Uint8Array,
  limits: ZipExpansionLimits = XLSX_LIMITS,
  field = 'file',
): Promise<void> {
  let zip: JSZip;
  try {
    // Reads the central directory and the local headers; inflates nothing.
    zip = await JSZip.loadAsync(data);
  } catch {
    return;
  }
  const entries = Object.values(zip.files);
  if (entries.length > limits.maxEntries) {
    throw new ZipExpansionError(
      `The file holds ${entries.length} entries; at most ${limits.maxEntries} are accepted.`,
      'too_many_entries',
      field,
    );
  }
  const tooLarge = () =>
    new ZipExpansionError(
      `The file expands to more than ${megabytes(limits.maxExpandedBytes)}; that is the most accepted.`,
      'expands_too_large',
      field,
    );
  const declared = entries.reduce((sum, file) => sum + (declaredSize(file) ?? 0), 0);
  if (declared > limits.maxExpandedBytes) throw tooLarge();
  // The declared sizes may lie: inflate for real, never past the limit.
  let expanded = 0;
  for (const file of entries) {
    if (file.dir) continue;
    try {
      expanded += await inflatedSize(file, limits.maxExpandedBytes - expanded, declaredSize(file));
    } catch (error) {
      if (!(error instanceof Overrun)) throw error;
      if (error.code === 'expands_too_large') throw tooLarge();
      throw new ZipExpansionError(
        `The file is malformed: '${file.name}' inside it is larger than the archive declares.`,
        'entry_larger_than_declared',
        field,
      );
    }
  }
}
