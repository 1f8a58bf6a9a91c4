import Editor from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';
import { useEffect } from 'react';
import type { DataPoint } from '../../shared/data-points.js';
import { HELPER_FUNCTIONS } from '../../shared/helpers.js';
import { dataPointCompletions } from '../data-point-completion.js';
import { helperCompletions } from '../helper-completion.js';
import { libraryCompletions } from '../library-completion.js';

/**
 * A template's Typst source in Monaco, with completion of data points after `data.` from the
 * catalogue (GET /api/documents/data-points/), of the helper functions by name, and of component and
 * asset names inside their import paths. Only the template page's lazy chunk imports this
 * file: Monaco comes from the bundle (`@atrium/sdk/monaco`), never from a CDN or the first load.
 */
export const TYPST_LANGUAGE = 'atrium-typst';

/** The catalogue per editor model, read by the provider registered once for the language. */
const pointsByModel = new Map<string, readonly DataPoint[]>();

/** The components and assets a template may import, per editor model (names completed in their paths). */
export interface EditorLibrary {
  components: readonly { name: string; description: string }[];
  assets: readonly { name: string; mime_type: string }[];
}
const libraryByModel = new Map<string, EditorLibrary>();

if (!monaco.languages.getLanguages().some((l) => l.id === TYPST_LANGUAGE)) {
  monaco.languages.register({ id: TYPST_LANGUAGE });
  monaco.languages.setMonarchTokensProvider(TYPST_LANGUAGE, {
    tokenizer: {
      root: [
        [/\/\/.*$/, 'comment'],
        [/^\s*=+ .*$/, 'keyword'],
        [/#[A-Za-z_][\w.-]*/, 'type'],
        [/"([^"\\]|\\.)*"/, 'string'],
        [/\d*\.?\d+/, 'number'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(TYPST_LANGUAGE, {
    comments: { lineComment: '//', blockComment: ['/*', '*/'] },
    brackets: [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
    ],
    wordPattern: /[A-Za-z_][\w-]*/,
  });
  monaco.languages.registerCompletionItemProvider(TYPST_LANGUAGE, {
    triggerCharacters: ['.', '/'],
    provideCompletionItems(model, position) {
      const points = pointsByModel.get(model.uri.toString()) ?? [];
      const before = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
      const library = libraryByModel.get(model.uri.toString());
      const files = library ? libraryCompletions(before, library.components, library.assets) : [];
      if (files.length > 0) {
        return {
          suggestions: files.map((entry) => ({
            label: entry.label,
            kind:
              entry.kind === 'component'
                ? monaco.languages.CompletionItemKind.File
                : monaco.languages.CompletionItemKind.Color,
            detail: entry.detail,
            insertText: entry.label,
            range: new monaco.Range(position.lineNumber, entry.startColumn, position.lineNumber, position.column),
          })),
        };
      }
      const helpers = helperCompletions(before, HELPER_FUNCTIONS).map((entry) => ({
        label: entry.label,
        kind: monaco.languages.CompletionItemKind.Function,
        detail: entry.detail,
        documentation: { value: entry.documentation },
        insertText: entry.label,
        range: new monaco.Range(position.lineNumber, entry.startColumn, position.lineNumber, position.column),
      }));
      return {
        suggestions: [
          ...dataPointCompletions(before, points).map((entry) => ({
            label: entry.label,
            kind: entry.group ? monaco.languages.CompletionItemKind.Module : monaco.languages.CompletionItemKind.Field,
            detail: entry.detail,
            documentation: { value: `\`data.${entry.path}\`` },
            insertText: entry.label,
            range: new monaco.Range(position.lineNumber, entry.startColumn, position.lineNumber, position.column),
          })),
          ...helpers,
        ],
      };
    },
  });
}

export interface TemplateEditorProps {
  /** A stable id for the model (the version's id). */
  modelId: string;
  value: string;
  onChange(value: string): void;
  readOnly: boolean;
  dataPoints: readonly DataPoint[];
  library?: EditorLibrary;
}

export default function TemplateEditor({
  modelId,
  value,
  onChange,
  readOnly,
  dataPoints,
  library,
}: TemplateEditorProps) {
  const path = `inmemory://atrium/documents/versions/${modelId}.typ`;
  useEffect(() => {
    const key = monaco.Uri.parse(path).toString();
    pointsByModel.set(key, dataPoints);
    if (library) libraryByModel.set(key, library);
    return () => {
      pointsByModel.delete(key);
      libraryByModel.delete(key);
    };
  }, [path, dataPoints, library]);
  return (
    <div
      data-editor=""
      data-testid="template-source"
      data-readonly={readOnly ? 'true' : 'false'}
      style={{ border: '1px solid var(--mantine-color-gray-4)' }}
    >
      <Editor
        height={520}
        language={TYPST_LANGUAGE}
        path={path}
        value={value}
        onChange={(next) => onChange(next ?? '')}
        loading="Loading editor…"
        options={{
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          lineNumbers: 'on',
          renderFinalNewline: 'on',
          automaticLayout: true,
          fixedOverflowWidgets: true,
          quickSuggestions: { other: true, comments: false, strings: false },
          wordWrap: 'on',
          tabSize: 2,
          ariaLabel: 'Template source',
        }}
      />
    </div>
  );
}
