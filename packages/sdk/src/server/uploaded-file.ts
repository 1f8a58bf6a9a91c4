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
