import { Busboy } from '@fastify/busboy';

/**
 * The uploaded file of a multipart/form-data body, for routes that take one file (imports, rate
 * tables, pictures): the part named `file`, else the first part with a file name. Routes register a
 * Buffer content-type parser for multipart (bodies are capped by the server's body limit), and this
 * reads the parts with busboy rather than by hand.
 */
export interface UploadedFile {
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Resolves null when there is no such part or the body is not multipart as its content type says. */
export function readUploadedFile(body: Buffer, contentType: string): Promise<UploadedFile | null> {
  return new Promise((resolve) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType } });
    } catch {
      resolve(null); // no boundary, or not multipart at all
      return;
    }
    let named: UploadedFile | null = null;
    let firstWithName: UploadedFile | null = null;
    const reads: Promise<void>[] = [];
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      reads.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const part = { filename, contentType: mimeType || undefined, data: Buffer.concat(chunks) };
            if (field === 'file' && !named) named = part;
            if (!firstWithName) firstWithName = part;
            done();
          });
        }),
      );
    });
    parser.on('field', (field, value, _nameTruncated, _valueTruncated, _encoding, mimeType) => {
      if (field === 'file' && !named) named = { contentType: mimeType || undefined, data: Buffer.from(value) };
    });
    parser.on('finish', () => void Promise.all(reads).then(() => resolve(named ?? firstWithName)));
    parser.on('error', () => resolve(null));
    parser.end(body);
  });
}

/**
 * Every part of a multipart/form-data body: text fields as strings (a name sent twice becomes a
 * list) and files as lists of `UploadedFile` by field name. For routes that take a classic form
 * with several files (the gateway's support ticket). Resolves null when the body is not multipart.
 */
export function readMultipartForm(
  body: Buffer,
  contentType: string,
): Promise<Record<string, string | string[] | UploadedFile[]> | null> {
  return new Promise((resolve) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType }, limits: { fields: 100, files: 20 } });
    } catch {
      resolve(null);
      return;
    }
    const form: Record<string, string | string[] | UploadedFile[]> = {};
    const reads: Promise<void>[] = [];
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      reads.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const files = Array.isArray(form[field]) && typeof form[field][0] === 'object' ? form[field] : [];
            (files as UploadedFile[]).push({
              filename,
              contentType: mimeType || undefined,
              data: Buffer.concat(chunks),
            });
            form[field] = files as UploadedFile[];
            done();
          });
        }),
      );
    });
    parser.on('field', (field, value) => {
      const previous = form[field];
      if (previous === undefined) form[field] = value;
      else if (typeof previous === 'string') form[field] = [previous, value];
      else if (typeof previous[0] === 'string') (previous as string[]).push(value);
    });
    parser.on('finish', () => void Promise.all(reads).then(() => resolve(form)));
    parser.on('error', () => resolve(null));
    parser.end(body);
  });
}
