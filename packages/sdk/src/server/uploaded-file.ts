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
    const fields = new Map<string, string[]>();
    const files = new Map<string, UploadedFile[]>();
    const reads: Promise<void>[] = [];
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      const list = files.get(field) ?? [];
      files.set(field, list);
      const position = list.length;
      list.push({ filename, contentType: mimeType || undefined, data: Buffer.alloc(0) });
      reads.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            list[position]!.data = Buffer.concat(chunks);
            done();
          });
        }),
      );
    });
    parser.on('field', (field, value) => {
      fields.set(field, [...(fields.get(field) ?? []), value]);
    });
    parser.on(
      'finish',
      () =>
        void Promise.all(reads).then(() => {
          const form: Record<string, string | string[] | UploadedFile[]> = {};
          for (const [name, values] of fields) form[name] = values.length === 1 ? values[0]! : values;
          // A name sent as a file is a file list, whatever text parts shared it.
          for (const [name, list] of files) form[name] = list;
          resolve(form);
        }),
    );
    parser.on('error', () => resolve(null));
    parser.end(body);
  });
}
