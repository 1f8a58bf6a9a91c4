// A render child (docs/documents.md, "Rendering"). The API process forks a small pool of these and
// sends one job at a time over IPC; the child compiles the Typst source with only the fonts shipped
// in ../fonts and answers PDF bytes (base64) or SVG. It is plain JavaScript so that it runs the same
// from sources and from the server bundle. The parent kills it when a job runs past its wall-clock
// limit; the memory limit (ulimit -v set by the parent) makes a runaway allocation abort this
// process, never the API process.
import { readFileSync } from 'node:fs';
import { NodeCompiler } from '@myriaddreamin/typst-ts-node-compiler';

const FONTS = ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf'].map((name) =>
  readFileSync(new URL(`../fonts/${name}`, import.meta.url)),
);
// A workspace that does not exist: templates cannot read files from the server's disk.
const WORKSPACE = '/nonexistent-atrium-documents';
const MAIN = `${WORKSPACE}/template.typ`;
const compiler = NodeCompiler.create({ workspace: WORKSPACE, fontArgs: [{ fontBlobs: FONTS }] });
// The helper functions every template imports through the prelude (pure Typst, shipped beside this file).
const HELPERS = readFileSync(new URL('./helpers.typ', import.meta.url));

/**
 * The files a render may read: the helpers, and the job's components (`/components/<name>.typ`) and
 * assets (`/assets/<name>`), mapped in memory for this job only.
 */
function mapFiles(files) {
  compiler.resetShadow();
  compiler.mapShadow(`${WORKSPACE}/atrium/helpers.typ`, HELPERS);
  for (const file of files ?? []) compiler.mapShadow(`${WORKSPACE}${file.path}`, Buffer.from(file.base64, 'base64'));
}

function diagnosticsOf(result, offset) {
  const error = result.takeDiagnostics() ?? result.takeError();
  if (!error) return [];
  let full = [];
  try {
    full = compiler.fetchDiagnostics(error) ?? [];
  } catch {
    full = [];
  }
  const short = error.shortDiagnostics ?? [];
  const list = full.length > 0 ? full : short;
  return list
    .filter((d) => d.severity === 1 || d.severity === 'error' || d.severity === 'Error')
    .map((d) => {
      const start = d.range?.start ?? null;
      const line = typeof start?.line === 'number' ? start.line + 1 - offset : null;
      const column = typeof start?.character === 'number' ? start.character + 1 : null;
      return { message: String(d.message), line: line !== null && line >= 1 ? line : null, column };
    });
}

process.on('message', (job) => {
  const { id, source, prelude, data, format, timestamp, files } = job;
  try {
    const offset = prelude.split('\n').length - 1;
    mapFiles(files);
    // A source file (not mainFileContent) so that diagnostics carry their line and column.
    compiler.addSource(MAIN, prelude + source);
    const result = compiler.compile({ mainFilePath: MAIN, inputs: { data } });
    const doc = result.result;
    if (!doc || result.hasError()) {
      const diagnostics = diagnosticsOf(result, offset);
      process.send({ id, ok: false, diagnostics });
      return;
    }
    const pageCount = doc.numOfPages;
    if (format === 'pdf') {
      const pdf = compiler.pdf(doc, { creationTimestamp: timestamp });
      process.send({ id, ok: true, pageCount, pdf: Buffer.from(pdf).toString('base64') });
    } else {
      process.send({ id, ok: true, pageCount, svg: compiler.svg(doc) });
    }
    compiler.evictCache(30);
  } catch (error) {
    process.send({
      id,
      ok: false,
      diagnostics: [{ message: String(error?.message ?? error), line: null, column: null }],
    });
  }
});
process.send({ ready: true });
