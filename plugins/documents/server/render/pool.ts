import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The render pool (docs/documents.md, "Rendering"): a few child processes (2 by default), each
 * running render/child.mjs, one job at a time each. A job past its wall-clock limit (10 s by
 * default) kills its child; a child started under `ulimit -v` aborts when a template allocates past
 * the memory limit. Either way the caller gets a RenderLimitError and a fresh child takes the slot;
 * the API process never runs Typst itself. Children start on the first render, not at server start.
 */
export interface RenderJob {
  source: string;
  /** The template's data, as JSON text (the template reads it as `data`). */
  data: string;
  format: 'pdf' | 'svg';
  /** Unix seconds written into the PDF as its creation date (the document's own date). */
  timestamp: number;
  /** Files the template may import or show: components (`/components/x.typ`) and assets (`/assets/x.png`). */
  files?: { path: string; base64: string }[];
}

export interface Diagnostic {
  message: string;
  line: number | null;
  column: number | null;
}

export type RenderResult =
  { ok: true; pageCount: number; pdf?: Buffer; svg?: string } | { ok: false; diagnostics: Diagnostic[] };

/** A render stopped by its time or memory limit. */
export class RenderLimitError extends Error {}

/** What every template starts with: the shipped font, the data as `data`, and the helper functions. */
export const PRELUDE = [
  '#set text(font: "DejaVu Serif", fallback: false, size: 10pt)',
  '#let data = json(bytes(sys.inputs.data))',
  '#import "/atrium/helpers.typ": formatCurrency, formatDate, pluralize',
  '',
].join('\n');

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const FONT_FILES = ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf'];

function compilerVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = require('@myriaddreamin/typst-ts-node-compiler/package.json') as { version: string };
  return pkg.version;
}

/** The renderer's identity stored on each production document: compiler version, prelude and fonts. */
export function rendererVersion(): string {
  const hash = createHash('sha256')
    .update(PRELUDE)
    .update(readFileSync(new URL('./helpers.typ', import.meta.url)));
  for (const name of FONT_FILES) hash.update(readFileSync(new URL(`../fonts/${name}`, import.meta.url)));
  return `typst-ts-node-compiler@${compilerVersion()}+${hash.digest('hex').slice(0, 12)}`;
}

interface Pending {
  id: number;
  job: RenderJob;
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
}

export interface RenderPoolOptions {
  size?: number;
  timeoutMs?: number;
  memoryMb?: number;
}

export class RenderPool {
  readonly size: number;
  readonly timeoutMs: number;
  readonly memoryMb: number;
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    this.size = options.size ?? 2;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.memoryMb = options.memoryMb ?? 1024;
  }

  render(job: RenderJob): Promise<RenderResult> {
    if (this.closed) return Promise.reject(new Error('The render pool is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      if (this.slots.length < this.size) this.slots.push(this.startChild());
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.current?.reject(new Error('The render pool is closed.'));
      slot.child.kill('SIGKILL');
    }
    for (const pending of this.queue) pending.reject(new Error('The render pool is closed.'));
    this.slots = [];
    this.queue = [];
  }

  private startChild(): Slot {
    const kb = this.memoryMb * 1024;
    const child = spawn('/bin/sh', ['-c', `ulimit -v ${kb} && exec "$0" "$@"`, process.execPath, CHILD], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Few malloc arenas: each thread's arena reserves address space that counts against ulimit -v.
      env: { PATH: process.env.PATH ?? '', MALLOC_ARENA_MAX: '2' },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const slot: Slot = { child, ready: Promise.resolve(), current: null, timer: null };
    slot.ready = new Promise<void>((resolve) => {
      const onReady = (message: { ready?: boolean }) => {
        if (message?.ready) {
          child.off('message', onReady);
          resolve();
        }
      };
      child.on('message', onReady);
    });
    child.on('message', (message: { id?: number } & Record<string, unknown>) => {
      if (message.id === undefined || slot.current?.id !== message.id) return;
      const pending = slot.current;
      this.finish(slot);
      if (message.ok) {
        pending.resolve({
          ok: true,
          pageCount: message.pageCount as number,
          pdf: typeof message.pdf === 'string' ? Buffer.from(message.pdf, 'base64') : undefined,
          svg: typeof message.svg === 'string' ? message.svg : undefined,
        });
      } else {
        pending.resolve({ ok: false, diagnostics: message.diagnostics as Diagnostic[] });
      }
      this.pump();
    });
    child.on('exit', (code, signal) => {
      const pending = slot.current;
      this.finish(slot);
      this.slots = this.slots.filter((s) => s !== slot);
      if (pending && !(pending as Pending & { timedOut?: boolean }).timedOut) {
        const memory = /memory allocation|out of memory|heap/i.test(stderr) || signal === 'SIGABRT' || code === 134;
        pending.reject(
          new RenderLimitError(
            memory
              ? `The template used more than the ${this.memoryMb} MB memory limit and was stopped.`
              : `The renderer stopped while rendering the template (exit ${signal ?? code}).`,
          ),
        );
      }
      if (!this.closed && this.queue.length > 0) {
        this.slots.push(this.startChild());
        this.pump();
      }
    });
    return slot;
  }

  private finish(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
  }

  private pump() {
    for (const slot of this.slots) {
      if (slot.current || this.queue.length === 0) continue;
      const pending = this.queue.shift()!;
      slot.current = pending;
      void slot.ready.then(() => {
        if (slot.current !== pending) return;
        slot.timer = setTimeout(() => {
          (pending as Pending & { timedOut?: boolean }).timedOut = true;
          pending.reject(
            new RenderLimitError(`The template took longer than ${this.timeoutMs / 1000} s to render and was stopped.`),
          );
          slot.child.kill('SIGKILL');
        }, this.timeoutMs);
        slot.child.send({ id: pending.id, prelude: PRELUDE, ...pending.job });
      });
    }
  }
}
