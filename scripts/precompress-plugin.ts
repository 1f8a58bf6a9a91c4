import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; source maps are only fetched by developer tools. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;
/** Files compressed at once: enough to keep both cores busy without holding every file in memory. */
const CONCURRENCY = 4;
/**
 * Brotli's best quality costs ~20× the time of quality 5 for ~10% fewer bytes: worth it for the app's
 * own chunks (the first page's among them), not for Monaco's multi-megabyte editor and workers, which
 * load only in the editors and would add minutes to every build.
 */
const BEST_QUALITY_UP_TO_BYTES = 1024 * 1024;
const FAST_QUALITY = 5;

async function compressFile(file: string): Promise<void> {
  const source = await readFile(file);
  if (source.length < MIN_BYTES) return;
  const [br, gzipped] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]:
          source.length <= BEST_QUALITY_UP_TO_BYTES ? constants.BROTLI_MAX_QUALITY : FAST_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gz(source, { level: source.length <= BEST_QUALITY_UP_TO_BYTES ? constants.Z_BEST_COMPRESSION : 6 }),
  ]);
  // A file that does not shrink is served as it is (the server falls back to the original).
  if (br.length < source.length) await writeFile(`${file}.br`, br);
  if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset of the build, once, at build time, so
 * the server sends the smallest encoding the browser accepts without compressing per request
 * (packages/server/src/http/spa.ts serves them through @fastify/static's `preCompressed`).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'atrium:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => COMPRESSIBLE.test(name))
        .map((name) => path.join(outDir, name));
      let next = 0;
      const worker = async () => {
        while (next < files.length) await compressFile(files[next++]!);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    },
  };
}
