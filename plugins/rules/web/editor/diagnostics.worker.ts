import { brlDiagnostics, type BrlSuggestions } from './brl-service.js';

/**
 * The editor's diagnostics off the main thread: the same parser and type check as the server's
 * validate job (brl-service), run on each request; the answer carries the request's id so the page
 * keeps only the latest.
 */
export interface DiagnosticsRequest {
  id: number;
  text: string;
  suggestions: BrlSuggestions | null;
  name?: string;
}

// Typed by hand: the program's lib is the DOM's, not the worker's.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<DiagnosticsRequest>) => void) | null;
  postMessage(message: unknown): void;
};
scope.onmessage = (event: MessageEvent<DiagnosticsRequest>) => {
  const { id, text, suggestions, name } = event.data;
  scope.postMessage({ id, diagnostics: brlDiagnostics(text, suggestions, name) });
};
