import Editor, { DiffEditor, type OnMount } from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';
import { useEffect, useRef } from 'react';
import {
  completionsAt,
  formatBrl,
  hoverAt,
  templateDefinitionAt,
  type BrlSuggestions,
  type CompletionKind,
  type Diagnostic,
} from './brl-service.js';

/**
 * A rule component's text in Monaco with the BRL language registered: Monarch tokens, completion
 * and hover from brl-service (the ontology of the effective date), the diagnostics the page computes
 * with the same parser and type check as the server drawn as markers, and format document (parse →
 * print). Only the component page's lazy chunk imports this file: Monaco comes from the bundle
 * (`@atrium/sdk/monaco`, its workers as same-origin files), never from a CDN or the first load.
 */

export const BRL_LANGUAGE = 'atrium-brl';
const MARKER_OWNER = 'atrium-rules-brl';

/** Suggestions per editor model, read by the providers registered once for the language. */
const suggestionsByModel = new Map<string, BrlSuggestions | null>();

const KIND: Record<CompletionKind, monaco.languages.CompletionItemKind> = {
  keyword: monaco.languages.CompletionItemKind.Keyword,
  tool: monaco.languages.CompletionItemKind.Snippet,
  action: monaco.languages.CompletionItemKind.Snippet,
  riskType: monaco.languages.CompletionItemKind.Class,
  field: monaco.languages.CompletionItemKind.Field,
  item: monaco.languages.CompletionItemKind.Value,
  option: monaco.languages.CompletionItemKind.EnumMember,
  function: monaco.languages.CompletionItemKind.Function,
};

if (!monaco.languages.getLanguages().some((l) => l.id === BRL_LANGUAGE)) {
  monaco.languages.register({ id: BRL_LANGUAGE });
  monaco.languages.setMonarchTokensProvider(BRL_LANGUAGE, {
    ignoreCase: true,
    keywords: [
      'rule',
      'template',
      'from',
      'with',
      'parameter',
      'category',
      'applies',
      'to',
      'priority',
      'when',
      'then',
      'otherwise',
      'end',
      'where',
      'as',
      'always',
      'there',
      'is',
      'are',
      'a',
      'no',
      'risk',
      'risks',
      'count',
      'at',
      'least',
      'most',
      'exactly',
      'it',
      'true',
      'false',
      'that',
      'user',
      'role',
      'show',
      'hide',
      'make',
      'readonly',
      'editable',
      'mandatory',
      'optional',
      'mark',
      'invalid',
      'message',
      'set',
      'only',
      'allow',
      'disallow',
      'options',
      'raise',
      'issue',
      'severity',
      'blocking',
      'attach',
      'form',
      'suppress',
      'printing',
      'print',
      'on',
      'renewal',
      'input-type',
      'default',
      'documentation',
    ],
    operators: ['and', 'or', 'not', 'in'],
    tokenizer: {
      root: [
        [/#.*$/, 'comment'],
        [/\{\{\s*[A-Za-z_]\w*\s*\}\}/, 'type'],
        [/\d*\.?\d+/, 'number'],
        [/'([^'\\]|\\.)*'/, 'string'],
        [/"([^"\\]|\\.)*"/, 'string'],
        [/[A-Za-z_]\w*(?=\s*\()/, 'keyword.function'],
        [/[A-Za-z_][\w-]*/, { cases: { '@keywords': 'keyword', '@operators': 'operator', '@default': 'identifier' } }],
        [/[-+*/%^=<>!,:]+/, 'operator'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(BRL_LANGUAGE, {
    comments: { lineComment: '#' },
    brackets: [['(', ')']],
    wordPattern: /[A-Za-z_][\w]*/,
    autoClosingPairs: [
      { open: '(', close: ')' },
      { open: "'", close: "'", notIn: ['string'] },
      { open: '"', close: '"', notIn: ['string'] },
    ],
  });
  monaco.languages.registerCompletionItemProvider(BRL_LANGUAGE, {
    triggerCharacters: [' ', "'"],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const entries = completionsAt(
        model.getValue(),
        position.lineNumber,
        position.column,
        suggestionsByModel.get(model.uri.toString()) ?? null,
      );
      return {
        suggestions: entries.map((entry) => ({
          label: entry.label,
          kind: KIND[entry.kind],
          detail: entry.detail,
          documentation: entry.documentation ? { value: entry.documentation } : undefined,
          insertText: entry.insertText,
          insertTextRules: entry.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          range,
        })),
      };
    },
  });
  monaco.languages.registerHoverProvider(BRL_LANGUAGE, {
    provideHover(model, position) {
      const hover = hoverAt(
        model.getValue(),
        position.lineNumber,
        position.column,
        suggestionsByModel.get(model.uri.toString()) ?? null,
      );
      if (!hover) return null;
      return {
        contents: [{ value: hover.contents }],
        range: new monaco.Range(position.lineNumber, hover.startColumn, position.lineNumber, hover.endColumn),
      };
    },
  });
  // Go to definition in a template use: the template's text, shown in place (peek: Alt+F12 or Ctrl+click).
  monaco.languages.registerDefinitionProvider(BRL_LANGUAGE, {
    provideDefinition(model, position) {
      const found = templateDefinitionAt(
        model.getValue(),
        position.lineNumber,
        position.column,
        suggestionsByModel.get(model.uri.toString()) ?? null,
      );
      if (!found) return null;
      const uri = monaco.Uri.parse(`inmemory://atrium/rules/templates/${found.template.name}.brl`);
      const existing = monaco.editor.getModel(uri);
      if (existing) existing.setValue(found.text);
      else monaco.editor.createModel(found.text, BRL_LANGUAGE, uri);
      return { uri, range: new monaco.Range(found.line, 1, found.line, 1) };
    },
  });
  monaco.languages.registerDocumentFormattingEditProvider(BRL_LANGUAGE, {
    provideDocumentFormattingEdits(model) {
      const formatted = formatBrl(model.getValue());
      if (formatted === null || formatted === model.getValue()) return [];
      return [{ range: model.getFullModelRange(), text: formatted }];
    },
  });
}

export interface BrlEditorProps {
  /** A stable id for the model (component and effective date). */
  modelId: string;
  /** `brl` for rules and templates, `json` for tests. */
  language: 'brl' | 'json';
  value: string;
  onChange(value: string): void;
  readOnly: boolean;
  suggestions: BrlSuggestions | null;
  diagnostics: readonly Diagnostic[];
  height?: number;
}

export default function BrlEditor({
  modelId,
  language,
  value,
  onChange,
  readOnly,
  suggestions,
  diagnostics,
  height = 420,
}: BrlEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const path = `inmemory://atrium/rules/${modelId}.${language}`;

  useEffect(() => {
    const key = monaco.Uri.parse(path).toString();
    suggestionsByModel.set(key, suggestions);
    return () => {
      suggestionsByModel.delete(key);
    };
  }, [path, suggestions]);

  const applyMarkers = () => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      diagnostics.map((d) => ({
        severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        message: d.message,
        startLineNumber: d.startLine,
        startColumn: d.startColumn,
        endLineNumber: d.endLine,
        endColumn: d.endColumn,
      })),
    );
  };
  const applyRef = useRef(applyMarkers);
  applyRef.current = applyMarkers;
  useEffect(() => applyRef.current(), [diagnostics]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    applyRef.current();
  };

  return (
    <div data-editor="" data-testid="brl-editor" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <Editor
        height={height}
        language={language === 'brl' ? BRL_LANGUAGE : 'json'}
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
          // The dimmed number of the line after the final newline fails axe's colour contrast.
          renderFinalNewline: 'on',
          automaticLayout: true,
          fixedOverflowWidgets: true,
          quickSuggestions: { other: true, comments: false, strings: false },
          tabSize: 2,
          // The definition (a template) is another model: show it in place.
          definitionLinkOpensInPeek: true,
          ariaLabel: 'Component text',
        }}
      />
    </div>
  );
}

export interface BrlDiffEditorProps {
  language: 'brl' | 'json';
  /** The text as last committed. */
  original: string;
  /** The text in the editor. */
  modified: string;
  height?: number;
}

/** The committed text beside the text in the editor (Monaco's diff editor, side by side, read-only). */
export function BrlDiffEditor({ language, original, modified, height = 360 }: BrlDiffEditorProps) {
  return (
    <div data-editor="" data-testid="brl-diff-editor" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <DiffEditor
        // @monaco-editor/react disposes the models before the diff editor on unmount, which Monaco
        // reports as an error: keep them, and dispose them once the diff editor is gone.
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(editor) => {
          const models = editor.getModel();
          editor.onDidDispose(() => {
            models?.original.dispose();
            models?.modified.dispose();
          });
        }}
        height={height}
        language={language === 'brl' ? BRL_LANGUAGE : 'json'}
        original={original}
        modified={modified}
        loading="Loading changes…"
        options={{
          readOnly: true,
          renderSideBySide: true,
          // The gutter menu's toolbar answers a debounced event after the diff editor is disposed,
          // which Monaco throws as "AbstractContextKeyService has been disposed" (monaco-editor#4581);
          // the menu only offers revert actions, which a read-only comparison has no use for.
          renderGutterMenu: false,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          automaticLayout: true,
          originalAriaLabel: 'Committed text',
          modifiedAriaLabel: 'Text in the editor',
        }}
      />
    </div>
  );
}
