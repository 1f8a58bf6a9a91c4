import JSZip from 'jszip';

/**
 * Hostile zip archives for tests of uploads that take XLSX (docs/security.md, "Compressed uploads"):
 * made with JSZip, then — for the sizes an archive declares — rewritten in place, because no library
 * writes an archive that lies.
 */

/** An archive of `count` small entries (an XLSX-looking name, so upload routes take it as a workbook). */
export async function zipWithEntries(count: number): Promise<Buffer<ArrayBuffer>> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<Types/>');
  for (let i = 1; i < count; i++) zip.file(`xl/worksheets/sheet${i}.xml`, '', { createFolders: false });
  return Buffer.from(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

/** An archive with one entry of `bytes` zero bytes, deflated (a 1000:1 ratio), honestly declared. */
export async function zipOfZeros(bytes: number, name = 'xl/worksheets/sheet1.xml'): Promise<Buffer<ArrayBuffer>> {
  const zip = new JSZip();
  zip.file(name, Buffer.alloc(bytes), { createFolders: false });
  return Buffer.from(
    await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } }),
  );
}

/**
 * `archive` with the uncompressed size of every entry rewritten to `size` in the central directory
 * and in the local headers: a small archive that declares gigabytes, or a large one that declares
 * bytes. Walks the records from the end-of-central-directory record (no comment, no ZIP64).
 */
export function declaringSize(archive: Buffer, size: number): Buffer<ArrayBuffer> {
  const zip = Buffer.from(archive);
  const end = zip.length - 22;
  if (zip.readUInt32LE(end) !== 0x06054b50) throw new Error('No end of central directory record at the end.');
  const entries = zip.readUInt16LE(end + 10);
  let record = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(record) !== 0x02014b50) throw new Error('Not a central directory record.');
    zip.writeUInt32LE(size, record + 24);
    const local = zip.readUInt32LE(record + 42);
    zip.writeUInt32LE(size, local + 22);
    record += 46 + zip.readUInt16LE(record + 28) + zip.readUInt16LE(record + 30) + zip.readUInt16LE(record + 32);
  }
  return zip;
}
