import Editor, { type OnMount } from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';
import { useEffect, useRef } from 'react';
import type { CompletionEntry, CompletionKind } from './formula-completion.js';
import type { FormulaProblem } from './formula-problem.js';

/**
 * A calculation's formula in Monaco: the rating engine's formula language highlighted, completion of
 * the risk type's field, rate-table and calculation names (from the rating context), and the server's
 * validation problems drawn as error markers at their line and column. Only the calculations panel's
 * lazy chunk imports this file: Monaco comes from the bundle, never from a CDN or the first bundle.
 */

export const FORMULA_LANGUAGE = 'atrium-formula';
const MARKER_OWNER = 'atrium-lines-formula';

/** Completion entries per editor model, read by the one provider registered for the language. */
const entriesByModel = new Map<string, readonly CompletionEntry[]>();

const KIND: Record<CompletionKind, monaco.languages.CompletionItemKind> = {
  field: monaco.languages.CompletionItemKind.Field,
  calculation: monaco.languages.CompletionItemKind.Variable,
  table: monaco.languages.CompletionItemKind.Struct,
  item: monaco.languages.CompletionItemKind.Value,
  children: monaco.languages.CompletionItemKind.Reference,
  function: monaco.languages.CompletionItemKind.Function,
};

if (!monaco.languages.getLanguages().some((l) => l.id === FORMULA_LANGUAGE)) {
  monaco.languages.register({ id: FORMULA_LANGUAGE });
  monaco.languages.setMonarchTokensProvider(FORMULA_LANGUAGE, {
    ignoreCase: true,
    keywords: ['and', 'or', 'not', 'in', 'true', 'false'],
    tokenizer: {
      root: [
        [/#.*$/, 'comment'],
        [/\d*\.?\d+([eE][-+]?\d+)?/, 'number'],
        [/'([^'\\]|\\.)*'/, 'string'],
        [/"([^"\\]|\\.)*"/, 'string'],
        [/(field|calc):[A-Za-z_]\w*/, 'type'],
        [/[A-Za-z_]\w*(?=\s*\()/, 'keyword.function'],
        [/[A-Za-z_]\w*/, { cases: { '@keywords': 'keyword', '@default': 'identifier' } }],
        [/[-+*/%^=<>!&|]+/, 'operator'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(FORMULA_LANGUAGE, {
    comments: { lineComment: '#' },
    brackets: [['(', ')']],
    autoClosingPairs: [
      { open: '(', close: ')' },
      { open: "'", close: "'" },
      { open: '"', close: '"' },
    ],
  });
  monaco.languages.registerCompletionItemProvider(FORMULA_LANGUAGE, {
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const entries = entriesByModel.get(model.uri.toString()) ?? [];
      return {
        suggestions: entries.map((entry) => ({
          label: entry.label,
          kind: KIND[entry.kind],
          detail: entry.detail,
          insertText: entry.insertText,
          insertTextRules: entry.insertText.includes('$')
            ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet
            : undefined,
          range,
        })),
      };
    },
  });
}

export interface FormulaEditorProps {
  /** A stable id for the model (e.g. the calculation's id or 'new'). */
  modelId: string;
  value: string;
  onChange(value: string): void;
  readOnly: boolean;
  completions: readonly CompletionEntry[];
  problems: readonly FormulaProblem[];
  height?: number;
}

export default function FormulaEditor({
  modelId,
  value,
  onChange,
  readOnly,
  completions,
  problems,
  height = 180,
}: FormulaEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const path = `inmemory://atrium/lines/calculation-${modelId}.formula`;

  useEffect(() => {
    entriesByModel.set(monaco.Uri.parse(path).toString(), completions);
    return () => {
      entriesByModel.delete(monaco.Uri.parse(path).toString());
    };
  }, [path, completions]);

  const applyMarkers = () => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      problems.map((problem) => {
        // Without a position the whole formula is marked.
        const line = Math.min(problem.line ?? 1, model.getLineCount());
        const column = problem.column ?? 1;
        const whole = problem.line === null;
        const endLine = whole ? model.getLineCount() : line;
        const endColumn = whole
          ? model.getLineMaxColumn(endLine)
          : Math.max(column + 1, model.getWordAtPosition({ lineNumber: line, column })?.endColumn ?? column + 1);
        return {
          severity: monaco.MarkerSeverity.Error,
          message: problem.message,
          startLineNumber: line,
          startColumn: column,
          endLineNumber: endLine,
          endColumn,
        };
      }),
    );
  };
  const applyRef = useRef(applyMarkers);
  applyRef.current = applyMarkers;
  useEffect(() => applyRef.current(), [problems]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    applyRef.current();
  };

  return (
    <div data-editor="" data-testid="formula-editor" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <Editor
        height={height}
        language={FORMULA_LANGUAGE}
        path={path}
        value={value}
        onChange={(next) => onChange(next ?? '')}
        onMount={onMount}
        loading="Loading editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          lineNumbers: 'on',
          wordWrap: 'on',
          automaticLayout: true,
          fixedOverflowWidgets: true,
          quickSuggestions: true,
          ariaLabel: 'Formula',
        }}
      />
    </div>
  );
}
