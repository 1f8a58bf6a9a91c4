import Editor from '@monaco-editor/react';
import { monaco } from '@atrium/sdk/monaco';
import { useEffect } from 'react';

/**
 * A plugin's configuration as JSON in Monaco, checked while typing against the JSON Schema the plugin
 * ships (its record's `configuration_schema`): completion, hover and errors from Monaco's JSON worker.
 * Only the plugins page's lazy chunk imports this file, so Monaco is never in the first bundle
 * (`@atrium/sdk/monaco`: from the bundle, never a CDN). Schema problems are reported to the editor
 * form, which will not save while there are any.
 */
const MODEL_URI = 'inmemory://atrium/ui-plugins/configuration.json';
const SCHEMA_URI = 'inmemory://atrium/ui-plugins/configuration.schema.json';

/** Registers (or replaces) this editor's schema, keeping the schemas other editors registered. */
function useSchema(schema: Record<string, unknown> | null) {
  // Keyed by its text: setting the options restarts the JSON worker, so only a changed schema does.
  const text = schema ? JSON.stringify(schema) : '';
  useEffect(() => {
    const current = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    const defaults = monaco.json.jsonDefaults;
    const others = (defaults.diagnosticsOptions.schemas ?? []).filter((s) => s.uri !== SCHEMA_URI);
    defaults.setDiagnosticsOptions({
      ...defaults.diagnosticsOptions,
      validate: true,
      allowComments: false,
      enableSchemaRequest: false,
      schemas: current ? [...others, { uri: SCHEMA_URI, fileMatch: [MODEL_URI], schema: current }] : others,
    });
  }, [text]);
}

export default function ConfigurationEditor({
  value,
  onChange,
  schema,
  onProblems,
}: {
  value: string;
  onChange(value: string): void;
  schema: Record<string, unknown> | null;
  /** Monaco's problems with the document (syntax errors, schema warnings), as messages. */
  onProblems(problems: string[]): void;
}) {
  useSchema(schema);
  return (
    <div data-editor="" data-testid="configuration-editor" style={{ border: '1px solid var(--mantine-color-gray-4)' }}>
      <Editor
        height={180}
        language="json"
        path={MODEL_URI}
        value={value}
        onChange={(next) => onChange(next ?? '')}
        onValidate={(markers) =>
          onProblems(
            markers
              // Monaco reports schema violations as warnings and syntax errors as errors: both block saving.
              .filter((m) => m.severity >= monaco.MarkerSeverity.Warning)
              .map((m) => `Line ${m.startLineNumber}: ${m.message}`),
          )
        }
        loading="Loading editor…"
        options={{
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          tabSize: 2,
          automaticLayout: true,
          fixedOverflowWidgets: true,
          ariaLabel: 'Configuration (JSON)',
        }}
      />
    </div>
  );
}
