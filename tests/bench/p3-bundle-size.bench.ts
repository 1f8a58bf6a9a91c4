/**
 * P3 bundle size: gzip size of the shell's initial JavaScript (the entry chunk and its static
 * imports, recursively; dynamic imports excluded) beside a vanilla Vite React template (a counter
 * App with react/react-dom) built with the same Vite in the same run. Targets: ratio ≤ 3, no Monaco
 * bytes in the initial load, largest chunk of the app ≤ 500 kB (raw). P3_VERBOSE=1 lists the
 * modules of every initial chunk.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Inside the repo so that the template resolves the repo's react, react-dom and plugin-react.
const TEMPLATE_DIR = path.join(ROOT, 'node_modules/.cache/atrium/p3-template');
const RATIO_TARGET = 3;
const LARGEST_CHUNK_TARGET = 500 * 1000;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface BuildResult {
  outDir: string;
  manifest: Manifest;
  /** Module ids per output file name, recorded while the bundle was written. */
  modules: Map<string, string[]>;
}

/** Records which modules went into which chunk (the manifest names files, not modules). */
function recordChunkModules(into: Map<string, string[]>): Plugin {
  return {
    name: 'atrium-bench-chunk-modules',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') into.set(output.fileName, [...output.moduleIds]);
      }
    },
  };
}

async function buildApp(outDir: string): Promise<BuildResult> {
  const modules = new Map<string, string[]>();
  await build({
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    plugins: [recordChunkModules(modules)],
    build: { outDir, emptyOutDir: true, sourcemap: false, manifest: true },
  });
  return { outDir, manifest: readManifest(outDir), modules };
}

const TEMPLATE_FILES: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Vite + React + TS</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
  'src/App.tsx': `import { useState } from 'react';

function App() {
  const [count, setCount] = useState(0);
  return (
    <>
      <h1>Vite + React</h1>
      <div className="card">
        <button onClick={() => setCount((count) => count + 1)}>count is {count}</button>
        <p>
          Edit <code>src/App.tsx</code> and save to test HMR
        </p>
      </div>
    </>
  );
}

export default App;
`,
};

async function buildTemplate(outDir: string): Promise<BuildResult> {
  rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  for (const [file, content] of Object.entries(TEMPLATE_FILES)) {
    mkdirSync(path.dirname(path.join(TEMPLATE_DIR, file)), { recursive: true });
    writeFileSync(path.join(TEMPLATE_DIR, file), content);
  }
  const modules = new Map<string, string[]>();
  await build({
    configFile: false,
    root: TEMPLATE_DIR,
    logLevel: 'warn',
    plugins: [react(), recordChunkModules(modules)],
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  return { outDir, manifest: readManifest(outDir), modules };
}

function readManifest(outDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The HTML entry's chunk and everything it imports statically, recursively. */
function initialChunks(manifest: Manifest): ManifestChunk[] {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  const entry = entries.find(([key]) => key.endsWith('.html')) ?? entries[0];
  if (!entry) throw new Error('the manifest has no entry chunk');
  const seen = new Set<string>();
  const chunks: ManifestChunk[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest names ${key} but has no entry for it`);
    chunks.push(chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry[0]);
  return chunks;
}

const fileBytes = (result: BuildResult, file: string) => readFileSync(path.join(result.outDir, file));
const gzipBytes = (buffer: Buffer) => gzipSync(buffer).length;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET');

/** A module id's package ('react-dom', '@mantine/core') or its repo folder ('packages/sdk'). */
function moduleOwner(id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const nodeModules = clean.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) {
    const parts = clean.slice(nodeModules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const workspace = /\/(packages|plugins)\/([^/]+)\//.exec(clean);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  const relative = path.relative(ROOT, clean);
  return relative.startsWith('..') || path.isAbsolute(relative) ? clean.slice(-40) : relative;
}

function initialJs(result: BuildResult) {
  const chunks = initialChunks(result.manifest).filter((chunk) => chunk.file.endsWith('.js'));
  const files = chunks.map((chunk) => {
    const bytes = fileBytes(result, chunk.file);
    return { file: chunk.file, raw: bytes.length, gzip: gzipBytes(bytes) };
  });
  return {
    files,
    raw: files.reduce((sum, f) => sum + f.raw, 0),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    moduleIds: chunks.flatMap((chunk) => result.modules.get(chunk.file) ?? []),
    chunks,
  };
}

const outRoot = mkdtempSync(path.join(tmpdir(), 'atrium-p3-'));
try {
  const started = performance.now();
  const app = await buildApp(path.join(outRoot, 'app'));
  const template = await buildTemplate(path.join(outRoot, 'template'));
  const buildSeconds = (performance.now() - started) / 1000;

  const appInitial = initialJs(app);
  const templateInitial = initialJs(template);
  const ratio = appInitial.gzip / templateInitial.gzip;

  // Monaco: any initial chunk whose name or modules mention it.
  const monacoFiles = appInitial.files.filter((file) => {
    const chunk = appInitial.chunks.find((c) => c.file === file.file)!;
    const text = [chunk.name ?? '', chunk.src ?? '', file.file, ...(app.modules.get(file.file) ?? [])].join('\n');
    return /monaco/i.test(text);
  });
  const monacoBytes = monacoFiles.reduce((sum, f) => sum + f.raw, 0);

  const jsChunks = Object.values(app.manifest)
    .filter((chunk) => chunk.file.endsWith('.js'))
    .map((chunk) => ({ file: chunk.file, raw: fileBytes(app, chunk.file).length }))
    .sort((a, b) => b.raw - a.raw);
  const largest = jsChunks[0]!;

  const owners = new Map<string, number>();
  for (const id of appInitial.moduleIds) {
    const owner = moduleOwner(id);
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
  }
  const xstateInitial = appInitial.moduleIds.some((id) => /\/node_modules\/xstate\//.test(id));

  console.log(`built the app and the template in ${buildSeconds.toFixed(1)} s (vite, same run)`);
  console.log('app initial JavaScript (entry + static imports):');
  for (const file of appInitial.files)
    console.log(`  ${file.file.padEnd(44)} ${kB(file.raw).padStart(10)} raw ${kB(file.gzip).padStart(9)} gzip`);
  console.log(
    `  packages in the initial load (modules): ${[...owners]
      .sort((a, b) => b[1] - a[1])
      .map(([owner, count]) => `${owner} (${count})`)
      .join(', ')}`,
  );
  if (process.env.P3_VERBOSE) {
    for (const file of appInitial.files) {
      console.log(`  ${file.file}:`);
      for (const id of app.modules.get(file.file) ?? [])
        console.log(`    ${path.relative(ROOT, id.replace(/^\0/, ''))}`);
    }
  }
  console.log(`  xstate in the initial load: ${xstateInitial ? 'yes' : 'no'}`);
  console.log(`template initial JavaScript: ${templateInitial.files.length} file(s), ${kB(templateInitial.raw)} raw`);
  console.log('');
  console.log(`initial JS gzip    app ${kB(appInitial.gzip)}   template ${kB(templateInitial.gzip)}`);
  console.log(`ratio              ${ratio.toFixed(2)} (target ≤ ${RATIO_TARGET})  ${verdict(ratio <= RATIO_TARGET)}`);
  console.log(
    `Monaco initially   ${monacoBytes} bytes${monacoFiles.length ? ` in ${monacoFiles.map((f) => f.file).join(', ')}` : ''} (target 0)  ${verdict(monacoBytes === 0)}`,
  );
  console.log(
    `largest chunk      ${largest.file} ${kB(largest.raw)} raw (target ≤ ${kB(LARGEST_CHUNK_TARGET)})  ${verdict(largest.raw <= LARGEST_CHUNK_TARGET)}`,
  );
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}
