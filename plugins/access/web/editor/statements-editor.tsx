import Editor, { type OnMount } from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';
import { useEffect, useRef } from 'react';
import { STATEMENTS_JSON_SCHEMA } from '../../shared/statement-schema.js';
import { locatePointer } from './json-locate.js';

/**
 * The statements of a policy as JSON in Monaco, checked against STATEMENTS_JSON_SCHEMA while typing
 * and marked with the server's validation results. Only the policy editor's lazy chunk imports this
 * file: Monaco comes from the bundle (`@atrium/sdk/monaco`), never from a CDN, and never in
 * the first bundle.
 */

export const STATEMENTS_MODEL_URI = 'inmemory://atrium/access/policy-statements.json';
const SCHEMA_URI = 'inmemory://atrium/access/statements.schema.json';

monaco.json.jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  enableSchemaRequest: false,
  schemas: [{ uri: SCHEMA_URI, fileMatch: [STATEMENTS_MODEL_URI], schema: STATEMENTS_JSON_SCHEMA }],
});

export interface StatementMarker {
  /** A pointer into the statements array (`/2/effect`). */
  pointer: string;
  detail: string;
}

export interface StatementsEditorProps {
  value: string;
  onChange(value: string): void;
  readOnly?: boolean;
  /** The server's validation results, drawn as error markers. */
  markers: readonly StatementMarker[];
  height?: number | string;
}

const MARKER_OWNER = 'atrium-access-validation';

export default function StatementsEditor({ value, onChange, readOnly, markers, height = 420 }: StatementsEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);

  const applyMarkers = () => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const text = model.getValue();
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      markers.map((marker) => {
        const range = locatePointer(text, marker.pointer) ?? { start: 0, end: text.length };
        const start = model.getPositionAt(range.start);
        const end = model.getPositionAt(range.end);
        return {
          severity: monaco.MarkerSeverity.Error,
          message: marker.detail,
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
        };
      }),
    );
  };
  const applyRef = useRef(applyMarkers);
  applyRef.current = applyMarkers;
  useEffect(() => applyRef.current(), [markers]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    applyRef.current();
  };

  return (
    <div data-editor="" data-testid="statements-editor" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <Editor
        height={height}
        language="json"
        path={STATEMENTS_MODEL_URI}
        value={value}
        onChange={(next) => onChange(next ?? '')}
        onMount={onMount}
        loading="Loading editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          tabSize: 2,
          automaticLayout: true,
          fixedOverflowWidgets: true,
          ariaLabel: 'Statements (JSON)',
        }}
      />
    </div>
  );
}
