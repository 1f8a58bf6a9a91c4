// Same reader as the access module's (plugins/access/server/transfer/multipart-file.ts); plugins do not share files.
/**
 * The uploaded file of a multipart/form-data body: the part named `file`, else the first part with a
 * file name. Uploads are small (the body limit is 10 MiB), so the body is read whole and split here
 * rather than streamed.
 */
export interface UploadedFile {
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function uploadedFile(body: Buffer, contentType: string): UploadedFile | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundaryText = match?.[1] ?? match?.[2];
  if (!boundaryText) return null;
  const boundary = Buffer.from(`--${boundaryText}`);
  let fallback: UploadedFile | null = null;
  let position = body.indexOf(boundary);
  while (position >= 0) {
    const afterBoundary = position + boundary.length;
    if (body.subarray(afterBoundary, afterBoundary + 2).toString() === '--') break;
    const headersStart = afterBoundary + 2;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0) break;
    const next = body.indexOf(boundary, headersEnd + 4);
    if (next < 0) break;
    const headers = body.subarray(headersStart, headersEnd).toString('utf8');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const part: UploadedFile = {
      filename,
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim(),
      data: body.subarray(headersEnd + 4, Math.max(headersEnd + 4, next - 2)),
    };
    if (name === 'file') return part;
    if (filename !== undefined && !fallback) fallback = part;
    position = next;
  }
  return fallback;
}
