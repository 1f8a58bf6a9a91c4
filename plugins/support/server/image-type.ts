/**
 * What an uploaded file really is, by its first bytes: the support desk opens these screenshots,
 * so only raster images whose content matches their claim get in (no SVG, which can carry script,
 * and no file renamed to .png).
 */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export function sniffImage(data: Uint8Array): ImageType | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((b, i) => data[offset + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}
