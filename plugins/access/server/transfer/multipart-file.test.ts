import { describe, expect, it } from 'vitest';
import { uploadedFile } from './multipart-file.js';

const body = (parts: string[], boundary = 'XyZ') =>
  Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`);

describe('multipart upload', () => {
  it('finds the file field, with its name and type', () => {
    const data = body([
      'Content-Disposition: form-data; name="note"\r\n\r\nhello',
      'Content-Disposition: form-data; name="file"; filename="access.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\nc,d',
    ]);
    const file = uploadedFile(data, 'multipart/form-data; boundary=XyZ');
    expect(file).toMatchObject({ filename: 'access.csv', contentType: 'text/csv' });
    expect(file!.data.toString()).toBe('a,b\r\nc,d');
  });

  it('falls back to the first part with a file name, and answers null without one', () => {
    const data = body(['Content-Disposition: form-data; name="upload"; filename="a.json"\r\n\r\n{}']);
    expect(uploadedFile(data, 'multipart/form-data; boundary="XyZ"')!.data.toString()).toBe('{}');
    expect(
      uploadedFile(
        body(['Content-Disposition: form-data; name="note"\r\n\r\nhi']),
        'multipart/form-data; boundary=XyZ',
      ),
    ).toBeNull();
    expect(uploadedFile(data, 'multipart/form-data')).toBeNull();
  });
});
