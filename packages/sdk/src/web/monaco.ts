/// <reference types="vite/client" />
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker.js?worker';

/**
 * Monaco for every module's editor, set up once: import `monaco` from here (not from
 * 'monaco-editor') in an editor file that only a page's lazy chunk imports, and use
 * `@monaco-editor/react`'s Editor as usual. Monaco then comes from the bundle
 * (`loader.config({ monaco })`), never from a CDN nor in the first bundle, and its workers are
 * same-origin files the CSP allows (`worker-src 'self' blob:`): the editor worker, and the JSON
 * language worker (schema validation and completion for JSON documents).
 *
 * Each editor used to set `self.MonacoEnvironment` itself, some overwriting it and one keeping an
 * earlier one without the JSON worker, so which workers a page got depended on which editor loaded
 * first.
 */
const globalScope = self as typeof self & { MonacoEnvironment?: monaco.Environment };
globalScope.MonacoEnvironment = {
  getWorker: (_id, label) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};
loader.config({ monaco });

export { monaco };
