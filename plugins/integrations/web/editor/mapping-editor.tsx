import Editor, { DiffEditor, type OnMount } from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';

/**
 * The data-mapping editors (docs/integrations.md, "Mapping screens"): the JSONata expression and the
 * sample payload in Monaco, and the diff of two versions. Only the mapping pages' lazy chunk imports
 * this file, so Monaco comes from the bundle (`@atrium/sdk/monaco`) and never in the first bundle.
 */

const LANGUAGE = 'jsonata';
if (!monaco.languages.getLanguages().some((language) => language.id === LANGUAGE)) {
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    keywords: ['and', 'or', 'in', 'true', 'false', 'null', 'function'],
    tokenizer: {
      root: [
        [/\/\*/, 'comment', '@comment'],
        [/"([^"\\]|\\.)*"/, 'string'],
        [/'([^'\\]|\\.)*'/, 'string'],
        [/`[^`]*`/, 'variable'],
        [/\$[A-Za-z_]\w*/, 'predefined'],
        [/-?\d+(\.\d+)?([eE][+-]?\d+)?/, 'number'],
        [/[A-Za-z_]\w*/, { cases: { '@keywords': 'keyword', '@default': 'identifier' } }],
        [/[{}()[\]]/, '@brackets'],
        [/[:=<>!&|.*+\-/%?~^,;]/, 'operator'],
      ],
      comment: [
        [/\*\//, 'comment', '@pop'],
        [/./, 'comment'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(LANGUAGE, {
    brackets: [
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
    ],
  });
  // The registered decimal functions (evaluate.ts) are offered as completions.
  monaco.languages.registerCompletionItemProvider(LANGUAGE, {
    triggerCharacters: ['$'],
    provideCompletionItems: (model, position) => {
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      return {
        suggestions: DECIMAL_FUNCTIONS.map(([name, detail]) => ({
          label: `$${name}`,
          kind: monaco.languages.CompletionItemKind.Function,
          insertText: `${name}($0)`,
          insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          detail,
          range,
        })),
      };
    },
  });
}

const DECIMAL_FUNCTIONS: [string, string][] = [
  ['decimalAdd', 'Adds decimals exactly; answers a decimal string'],
  ['decimalSub', 'Subtracts exactly; answers a decimal string'],
  ['decimalMul', 'Multiplies exactly; answers a decimal string'],
  ['decimalDiv', 'Divides (40 digits); answers a decimal string'],
  ['decimalSum', 'Sums an array of decimals exactly'],
  ['decimalRound', 'Rounds half-even to places (2 by default)'],
  ['decimalCompare', '-1, 0 or 1'],
];

const OPTIONS = {
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  tabSize: 2,
  automaticLayout: true,
  fixedOverflowWidgets: true,
  wordWrap: 'on' as const,
};

/** Inserts text at the expression editor's cursor (the sample tree's paths). */
export type InsertAtCursor = (text: string) => void;

export interface MappingEditorProps {
  expression: string;
  onExpressionChange(value: string): void;
  sample: string;
  onSampleChange(value: string): void;
  readOnly?: boolean;
  onReady?(insert: InsertAtCursor): void;
}

export default function MappingEditor({
  expression,
  onExpressionChange,
  sample,
  onSampleChange,
  readOnly,
  onReady,
}: MappingEditorProps) {
  const onMount: OnMount = (editor) => {
    onReady?.((text) => {
      const selection = editor.getSelection();
      if (!selection) return;
      editor.executeEdits('sample-tree', [{ range: selection, text, forceMoveMarkers: true }]);
      editor.focus();
    });
  };
  return (
    <>
      <div data-editor="" data-testid="mapping-expression" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
        <Editor
          height={260}
          language={LANGUAGE}
          value={expression}
          onChange={(next) => onExpressionChange(next ?? '')}
          onMount={onMount}
          loading="Loading editor…"
          // No auto-closed or auto-surrounding brackets and quotes: a typed expression arrives as written.
          options={{
            ...OPTIONS,
            readOnly,
            autoClosingBrackets: 'never',
            autoClosingQuotes: 'never',
            autoSurround: 'never',
            ariaLabel: 'Expression (JSONata)',
          }}
        />
      </div>
      <div data-editor="" data-testid="mapping-sample" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
        <Editor
          height={220}
          language="json"
          value={sample}
          onChange={(next) => onSampleChange(next ?? '')}
          loading="Loading editor…"
          options={{ ...OPTIONS, readOnly, ariaLabel: 'Sample payload (JSON)' }}
        />
      </div>
    </>
  );
}

export function MappingDiffEditor({ original, modified }: { original: string; modified: string }) {
  return (
    <div data-editor="" data-testid="mapping-diff" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <DiffEditor
        // @monaco-editor/react disposes the models before the diff editor on unmount, which Monaco
        // reports as an error: keep them, and dispose them once the diff editor is gone (as rules does).
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => {
          const models = editor.getModel();
          editor.onDidDispose(() => {
            models?.original.dispose();
            models?.modified.dispose();
          });
        }}
        height={360}
        language={LANGUAGE}
        original={original}
        modified={modified}
        loading="Loading editor…"
        options={{
          ...OPTIONS,
          readOnly: true,
          renderSideBySide: true,
          // The gutter menu's toolbar answers a debounced event after the diff editor is disposed,
          // which Monaco throws as "AbstractContextKeyService has been disposed" (monaco-editor#4581);
          // the menu only offers revert actions, which a read-only comparison has no use for.
          renderGutterMenu: false,
          originalEditable: false,
          originalAriaLabel: 'Published expression',
          modifiedAriaLabel: 'Expression in the editor',
        }}
      />
    </div>
  );
}
