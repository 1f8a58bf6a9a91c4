import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/**
 * Reading PDFs back the way a person would: the text (poppler's pdftotext) and each page as a PNG
 * (pdftoppm, 60 dpi) compared with a committed golden image (pixelmatch). ATRIUM_UPDATE_GOLDEN=1
 * writes the golden images instead of comparing (review them before committing).
 */
const GOLDEN = path.join(import.meta.dirname, 'golden');

export function pdfToText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-pdf-'));
  writeFileSync(path.join(dir, 'doc.pdf'), pdf);
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'doc.pdf'), '-'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function pdfToPngs(pdf: Buffer): Buffer[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-pdf-'));
  writeFileSync(path.join(dir, 'doc.pdf'), pdf);
  execFileSync('pdftoppm', ['-png', '-r', '60', path.join(dir, 'doc.pdf'), path.join(dir, 'page')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return readdirSync(dir)
    .filter((f) => f.startsWith('page') && f.endsWith('.png'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f)));
}

/** The share of pixels of each page that differ from its golden image (`<name>-<page>.png`). */
export function compareWithGolden(name: string, pages: Buffer[]): number[] {
  mkdirSync(GOLDEN, { recursive: true });
  return pages.map((png, i) => {
    const file = path.join(GOLDEN, `${name}-${i + 1}.png`);
    if (process.env.ATRIUM_UPDATE_GOLDEN === '1' || !existsSync(file)) {
      if (process.env.ATRIUM_UPDATE_GOLDEN !== '1')
        throw new Error(`No golden image ${file}; run with ATRIUM_UPDATE_GOLDEN=1.`);
      writeFileSync(file, png);
      return 0;
    }
    return differingShare(png, readFileSync(file));
  });
}

/** The share of pixels that differ between two PNGs (1 when their sizes differ). */
export function differingShare(a: Buffer, b: Buffer): number {
  const actual = PNG.sync.read(a);
  const expected = PNG.sync.read(b);
  if (actual.width !== expected.width || actual.height !== expected.height) return 1;
  const differ = pixelmatch(actual.data, expected.data, null, actual.width, actual.height, { threshold: 0.1 });
  return differ / (actual.width * actual.height);
}
