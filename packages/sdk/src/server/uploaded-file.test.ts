import { describe, expect, it } from 'vitest';
import { readMultipartForm, readUploadedFile } from './uploaded-file.js';

const body = (parts: string[], boundary = 'XyZ') =>
  Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`);

describe('readUploadedFile', () => {
  it('finds the file field, with its name and type', async () => {
    const data = body([
      'Content-Disposition: form-data; name="note"\r\n\r\nhello',
      'Content-Disposition: form-data; name="file"; filename="access.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\nc,d',
    ]);
    const file = await readUploadedFile(data, 'multipart/form-data; boundary=XyZ');
    expect(file).toMatchObject({ filename: 'access.csv', contentType: 'text/csv' });
    expect(file!.data.toString()).toBe('a,b\r\nc,d');
  });

  it('keeps binary content byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255, 254]);
    const data = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="x.xlsx"\r\n\r\n'),
      bytes,
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    expect((await readUploadedFile(data, 'multipart/form-data; boundary=XyZ'))!.data).toEqual(bytes);
  });

  it('falls back to the first part with a file name, and answers null without one', async () => {
    const data = body(['Content-Disposition: form-data; name="upload"; filename="a.json"\r\n\r\n{}']);
    expect((await readUploadedFile(data, 'multipart/form-data; boundary="XyZ"'))!.data.toString()).toBe('{}');
    expect(
      await readUploadedFile(
        body(['Content-Disposition: form-data; name="note"\r\n\r\nhi']),
        'multipart/form-data; boundary=XyZ',
      ),
    ).toBeNull();
    expect(await readUploadedFile(data, 'multipart/form-data')).toBeNull();
    expect(await readUploadedFile(data, 'application/json')).toBeNull();
  });
});

describe('readMultipartForm', () => {
  it('reads text fields (a repeated name as a list) and every file of a field, in order', async () => {
    const data = body([
      'Content-Disposition: form-data; name="subject"\r\n\r\nPrinting',
      'Content-Disposition: form-data; name="ccs"\r\n\r\na@example.com',
      'Content-Disposition: form-data; name="ccs"\r\n\r\nb@example.com',
      'Content-Disposition: form-data; name="attachments"; filename="one.png"\r\nContent-Type: image/png\r\n\r\n1',
      'Content-Disposition: form-data; name="attachments"; filename="two.png"\r\nContent-Type: image/png\r\n\r\n22',
    ]);
    const form = await readMultipartForm(data, 'multipart/form-data; boundary=XyZ');
    expect(form).toMatchObject({
      subject: 'Printing',
      ccs: ['a@example.com', 'b@example.com'],
      attachments: [
        { filename: 'one.png', contentType: 'image/png' },
        { filename: 'two.png', contentType: 'image/png' },
      ],
    });
    expect((form!.attachments as { data: Buffer }[]).map((f) => f.data.toString())).toEqual(['1', '22']);
    expect(await readMultipartForm(Buffer.from('{}'), 'application/json')).toBeNull();
  });
});
