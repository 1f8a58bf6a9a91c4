import {
  checkComponent,
  fieldOf,
  lineage,
  printBrl,
  RULE_FUNCTIONS,
  tryParseBrl,
  type Ontology,
  type OntologyField,
  type TemplateComponent,
} from '@atrium/rating/rules';

/**
 * The BRL language service of the component editor, as pure functions over the text (no Monaco
 * here, so they are unit-tested directly): completion and hover from the ontology of the product
 * version in force on the effective date, diagnostics from the same parser and type check the
 * server's validate job runs, and formatting (parse → print). brl-monaco.ts adapts them to Monaco.
 */

/** What `POST rules/ontology/get-suggestions/` answers in `suggestions`. */
export interface BrlSuggestions {
  product: string;
  effective_date: string;
  ontology: Ontology | null;
  templates: TemplateComponent[];
}

export type CompletionKind = 'keyword' | 'tool' | 'action' | 'riskType' | 'field' | 'item' | 'option' | 'function';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail: string;
  documentation?: string;
  /** Text inserted; `${1:x}` placeholders when `snippet`. */
  insertText: string;
  snippet?: boolean;
}

export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface Hover {
  /** Markdown. */
  contents: string;
  startColumn: number;
  endColumn: number;
}

/** The "When" tools, with what they do (docs/rules.md, "When: the tools"). */
export const BRL_TOOLS: readonly { label: string; insertText: string; doc: string }[] = [
  { label: 'always', insertText: 'always', doc: 'Always holds.' },
  {
    label: 'it is true that',
    insertText: 'it is true that ${1:condition}',
    doc: 'Holds when the formula is true (an empty answer makes it false).',
  },
  {
    label: 'user role is',
    insertText: "user role is '${1:Agent}'",
    doc: "Holds when the caller acts in one of the roles: `user role is 'Agent', 'Agency'`.",
  },
  {
    label: 'there is a risk',
    insertText: 'there is a risk ${1:type} where ${2:condition}',
    doc: 'Holds when a risk of that type below this one (any depth) exists for which the formula holds (`where` is optional).',
  },
  {
    label: 'there is no risk',
    insertText: 'there is no risk ${1:type}',
    doc: 'Holds when no risk of that type (where the formula holds) exists.',
  },
  {
    label: 'there are',
    insertText: 'there are ${1|at least,at most,exactly|} ${2:2} risks ${3:type}',
    doc: 'Holds when the number of such risks compares so: `there are at least 2 risks driver where age < 25`.',
  },
  {
    label: 'count risks',
    insertText: 'count risks ${1:type} as ${2:name}',
    doc: 'Always holds; later conditions and actions can read `name`, the number of such risks.',
  },
];

/** The "Then" / "Otherwise" actions (docs/rules.md). */
export const BRL_ACTIONS: readonly { label: string; insertText: string; doc: string }[] = [
  { label: 'show', insertText: 'show ${1:element}', doc: 'Sets `visible` on the element (a field or item).' },
  { label: 'hide', insertText: 'hide ${1:element}', doc: 'Sets `visible: false` on the element.' },
  {
    label: 'make',
    insertText: 'make ${1:element} ${2|readonly,editable,mandatory,optional|}',
    doc: '`make x readonly` / `editable` / `mandatory` / `optional`.',
  },
  {
    label: 'mark',
    insertText: "mark ${1:element} invalid message '${2:message}'",
    doc: 'Sets `isValid: false` and the `validationMessage` (the message is optional).',
  },
  { label: 'set', insertText: 'set ${1:element} to ${2:value}', doc: "Sets the element's `value` to a formula." },
  {
    label: 'only allow',
    insertText: "only allow ${1:element} options '${2:a}'",
    doc: '`optionsWhitelist`: only these options (whitelists of several rules are intersected).',
  },
  {
    label: 'disallow',
    insertText: "disallow ${1:element} options '${2:a}'",
    doc: '`optionsBlacklist`: these options are not allowed (blacklists are joined).',
  },
  {
    label: 'raise issue',
    insertText:
      "raise issue '${1:CODE}' severity ${2|info,warning,refer,decline,early-decline|} blocking ${3|rate,submit,bind|} message '${4:message}'",
    doc: 'An underwriting issue: code, severity, what it blocks (`rate`, `submit`, `bind`; none when left out) and a message.',
  },
  {
    label: 'attach form',
    insertText: "attach form '${1:form name}'",
    doc: "A form-inclusion rule's action: the form (its name in Documents) goes with the declarations; it prints on new business and changes, on renewals too with `always print on renewal`, never with `suppress printing`.",
  },
];

const KEYWORD_DOCS: Record<string, string> = {
  rule: 'Starts a rule: `rule <name> ["label"]`, or a template use `rule <name> from template <t>`.',
  template: 'Starts a template: a rule with parameters (`parameter name: type …`) used by `from template`.',
  category:
    'For people and filters: `ui-control` (default), `validation`, `underwriting`, `flow`, `role`; `form-inclusion` rules decide the forms of declarations.',
  applies: '`applies to <risk type>`: the rule runs once on every risk of this type in the view model.',
  priority: 'Whole number, default 0: the highest priority decides when rules disagree about one property.',
  when: 'The conditions: every one must hold (a later line may start with `and`).',
  then: 'The actions run when every condition holds.',
  otherwise: 'The actions run when a condition does not hold.',
  end: 'Ends the component.',
  parameter: 'A template parameter: `parameter name: number|string|boolean|date|field|risk-type ["label"] …`.',
  where: 'The condition on each risk looked at; names are read on that risk (then its parents).',
  severity: '`info`, `warning`, `refer`, `decline`, `early-decline`.',
  blocking: 'What the issue stops: `rate` (and everything after), `submit` (and bind), `bind`.',
};

const HEADER_KEYWORDS = ['category', 'applies to', 'priority', 'when', 'then', 'otherwise', 'end'];
const CATEGORIES = ['ui-control', 'validation', 'underwriting', 'flow', 'role', 'form-inclusion'];

const fieldDetail = (f: OntologyField) => (f.options ? `${f.type}: ${f.options.join(', ')}` : f.type);

/** The risk type the component applies to (`applies to x`), or null. */
export function appliesToOf(text: string): string | null {
  const m = /^\s*applies\s+to\s+([A-Za-z_][\w.-]*)/im.exec(text);
  return m ? m[1]! : null;
}

/** The section the line is in: the last `when` / `then` / `otherwise` line above it, or 'header'. */
function sectionAt(lines: string[], lineIndex: number): 'header' | 'when' | 'then' | 'otherwise' {
  for (let i = lineIndex - 1; i >= 0; i--) {
    const w = lines[i]!.trim().toLowerCase();
    if (w === 'when' || w === 'then' || w === 'otherwise') return w;
  }
  return 'header';
}

function fieldsFrom(ontology: Ontology, riskType: string | null): CompletionEntry[] {
  if (!riskType) return [];
  const out: CompletionEntry[] = [];
  const seen = new Set<string>();
  for (const t of lineage(ontology, riskType)) {
    for (const f of t.fields) {
      if (seen.has(f.name)) continue;
      seen.add(f.name);
      out.push({
        label: f.name,
        kind: 'field',
        detail: `${t.name} field · ${fieldDetail(f)}`,
        insertText: f.name,
      });
    }
  }
  for (const item of lineage(ontology, riskType)[0]?.items ?? []) {
    out.push({ label: item, kind: 'item', detail: `${riskType} item`, insertText: item });
  }
  return out;
}

function riskTypes(ontology: Ontology | null): CompletionEntry[] {
  return (ontology?.riskTypes ?? []).map((t) => ({
    label: t.name,
    kind: 'riskType' as const,
    detail: t.parent ? `risk type · below ${t.parent}` : 'risk type',
    insertText: t.name,
  }));
}

function functions(): CompletionEntry[] {
  return Object.entries(RULE_FUNCTIONS)
    .filter(([name]) => !['and', 'or', 'not'].includes(name))
    .map(([name, spec]) => ({
      label: name,
      kind: 'function' as const,
      detail: `function · gives ${spec.returns}`,
      documentation: spec.doc,
      insertText: spec.max === 0 ? `${name}()` : `${name}($1)`,
      snippet: spec.max !== 0,
    }));
}

/**
 * What may be typed at a position (1-based line and column): the tools on a `when` line, the
 * actions on a `then` / `otherwise` line, risk types after `applies to` / `risk` / `risks`, the
 * fields and items of the risk type in scope (after `where`, of the risk looked at), a field's
 * options after `options`, the functions inside a formula, and the header's keywords.
 */
export function completionsAt(
  text: string,
  line: number,
  column: number,
  suggestions: BrlSuggestions | null,
): CompletionEntry[] {
  const lines = text.split('\n');
  const current = lines[line - 1] ?? '';
  const before = current.slice(0, column - 1);
  const ontology = suggestions?.ontology ?? null;
  const section = sectionAt(lines, line - 1);
  // Everything before the word being typed.
  const lead = before.replace(/[A-Za-z_][\w-]*$/, '');
  const leadTrim = lead.trim().toLowerCase();

  if (/\b(applies\s+to|risk|risks)\s+$/i.test(lead)) return riskTypes(ontology);
  if (/^\s*category\s+$/i.test(lead)) {
    return CATEGORIES.map((c) => ({ label: c, kind: 'keyword', detail: 'category', insertText: c }));
  }
  if (/\bfrom\s+template\s+$/i.test(lead)) {
    return (suggestions?.templates ?? []).map((t) => ({
      label: t.name,
      kind: 'keyword',
      detail: `template${t.label ? ` · ${t.label}` : ''}`,
      documentation: t.parameters.map((p) => `${p.name}: ${p.type}${p.label ? ` — ${p.label}` : ''}`).join('\n'),
      insertText: t.name,
    }));
  }
  const optionsOf = /\b(?:only\s+allow|disallow)\s+([A-Za-z_]\w*)\s+options\s+(?:'[^']*'\s*,\s*)*'?$/i.exec(before);
  if (optionsOf && ontology) {
    const f = fieldOf(ontology, appliesToOf(text) ?? '', optionsOf[1]!);
    const quoted = before.endsWith("'");
    return (f?.options ?? []).map((o) => ({
      label: o,
      kind: 'option',
      detail: `option of ${f!.name}`,
      insertText: quoted ? o : `'${o}'`,
    }));
  }

  if (section === 'header') {
    if (leadTrim === '' && line > 1) {
      return HEADER_KEYWORDS.map((k) => ({
        label: k,
        kind: 'keyword',
        detail: 'keyword',
        documentation: KEYWORD_DOCS[k.split(' ')[0]!],
        insertText: k === 'applies to' ? 'applies to ' : k,
      }));
    }
    return [];
  }

  const sectionWords =
    section === 'when' ? ['then'] : section === 'then' ? ['otherwise', 'end'] : section === 'otherwise' ? ['end'] : [];
  if (leadTrim === '' || (section === 'when' && leadTrim === 'and')) {
    const starters =
      section === 'when'
        ? BRL_TOOLS.map((t) => ({
            label: t.label,
            kind: 'tool' as const,
            detail: 'tool',
            documentation: t.doc,
            insertText: t.insertText,
            snippet: t.insertText.includes('$'),
          }))
        : BRL_ACTIONS.map((a) => ({
            label: a.label,
            kind: 'action' as const,
            detail: 'action',
            documentation: a.doc,
            insertText: a.insertText,
            snippet: true,
          }));
    return [
      ...starters,
      ...(leadTrim === ''
        ? sectionWords.map((k) => ({
            label: k,
            kind: 'keyword' as const,
            detail: 'keyword',
            documentation: KEYWORD_DOCS[k],
            insertText: k,
          }))
        : []),
    ];
  }

  if (!ontology) return functions();
  // Inside `where` of a tool the names are read on the risk looked at.
  const whereOf = /\brisks?\s+([A-Za-z_][\w-]*)\b.*\bwhere\b/i.exec(before);
  const scope = whereOf ? whereOf[1]! : appliesToOf(text);
  const counts = [...text.matchAll(/\bcount\s+risks\s+\S+\s+as\s+([A-Za-z_]\w*)/gi)].map((m) => ({
    label: m[1]!,
    kind: 'field' as const,
    detail: 'count (number)',
    insertText: m[1]!,
  }));
  const fields = fieldsFrom(ontology, scope);
  // After an action's verb only elements make sense.
  if (section !== 'when' && /^\s*(show|hide|make|mark|set|only\s+allow|disallow)\s+$/i.test(lead)) return fields;
  return [...fields, ...counts, ...functions()];
}

/** The word (letters, digits, `_`) at a 1-based column of a line, with its columns. */
function wordAt(lineText: string, column: number): { word: string; start: number; end: number } | null {
  const re = /[A-Za-z_][\w]*/g;
  for (let m = re.exec(lineText); m; m = re.exec(lineText)) {
    const start = m.index + 1;
    const end = start + m[0].length;
    if (column >= start && column <= end) return { word: m[0], start, end };
  }
  return null;
}

/** Documentation of what is under the cursor: a function, a field, a risk type, a tool or keyword, a template parameter. */
export function hoverAt(text: string, line: number, column: number, suggestions: BrlSuggestions | null): Hover | null {
  const lineText = text.split('\n')[line - 1] ?? '';
  const at = wordAt(lineText, column);
  if (!at) return null;
  const { word } = at;
  const range = { startColumn: at.start, endColumn: at.end };
  const lower = word.toLowerCase();
  const fn = RULE_FUNCTIONS[word];
  if (
    fn &&
    lineText
      .slice(at.end - 1)
      .trimStart()
      .startsWith('(')
  ) {
    return { contents: `**${word}()** — ${fn.doc}\n\nGives ${fn.returns}.`, ...range };
  }
  const ontology = suggestions?.ontology;
  if (ontology) {
    const type = ontology.riskTypes.find((t) => t.name === word);
    if (type) {
      return {
        contents: `**${word}** — risk type of ${ontology.product}${type.parent ? `, below ${type.parent}` : ''}\n\nFields: ${type.fields.map((f) => f.name).join(', ') || 'none'}${type.items.length ? `\n\nItems: ${type.items.join(', ')}` : ''}`,
        ...range,
      };
    }
    const before = lineText.slice(0, at.start - 1);
    const whereOf = /\brisks?\s+([A-Za-z_][\w-]*)\b.*\bwhere\b/i.exec(before);
    const scope = whereOf ? whereOf[1]! : appliesToOf(text);
    if (scope) {
      const owner = lineage(ontology, scope).find((t) => t.fields.some((f) => f.name === word));
      const f = owner?.fields.find((x) => x.name === word);
      if (f && owner) {
        return { contents: `**${word}** — field of ${owner.name}: ${fieldDetail(f)}`, ...range };
      }
      if (lineage(ontology, scope)[0]?.items.includes(word)) {
        return { contents: `**${word}** — item of ${scope}`, ...range };
      }
    }
  }
  // A template use's argument: its parameter's documentation.
  const use = /\bfrom\s+template\s+([A-Za-z_]\w*)/i.exec(text);
  if (use) {
    const template = suggestions?.templates.find((t) => t.name === use[1]);
    const p = template?.parameters.find((x) => x.name === word);
    if (p) {
      const extra = [p.documentation, p.default !== undefined ? `Default: ${String(p.default)}` : undefined]
        .filter(Boolean)
        .join('\n\n');
      return {
        contents: `**${p.name}** (${p.type})${p.label ? ` — ${p.label}` : ''}${extra ? `\n\n${extra}` : ''}`,
        ...range,
      };
    }
  }
  const tool = [...BRL_TOOLS, ...BRL_ACTIONS].find((t) => t.label.split(' ')[0] === lower);
  if (
    tool &&
    lineText
      .trimStart()
      .toLowerCase()
      .replace(/^and\s+/, '')
      .startsWith(lower)
  ) {
    return { contents: `**${tool.label}** — ${tool.doc}`, ...range };
  }
  if (KEYWORD_DOCS[lower]) return { contents: `**${lower}** — ${KEYWORD_DOCS[lower]}`, ...range };
  return null;
}

/** Where a type-check message's first quoted name appears in the text (the header line aside). */
function locate(text: string, message: string): Omit<Diagnostic, 'severity' | 'message'> {
  const lines = text.split('\n');
  const names = [...message.matchAll(/'([^']+)'/g)].map((m) => m[1]!).slice(1); // [0] is the rule's name
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`(^|[^\\w])(${escaped})(?![\\w])`);
    for (let i = 1; i < lines.length; i++) {
      const code = lines[i]!.replace(/#.*$/, '');
      const m = re.exec(code);
      if (m) {
        const start = m.index + m[1]!.length + 1;
        return { startLine: i + 1, startColumn: start, endLine: i + 1, endColumn: start + name.length };
      }
    }
  }
  return { startLine: 1, startColumn: 1, endLine: 1, endColumn: (lines[0]?.length ?? 0) + 1 };
}

/**
 * Problems of a BRL text as the server's validate job finds them: a syntax error at its line and
 * column, the component's name, the round trip, and the type check against the ontology (each
 * placed on the name it is about).
 */
export function brlDiagnostics(text: string, suggestions: BrlSuggestions | null, componentName?: string): Diagnostic[] {
  const { component, problems } = tryParseBrl(text);
  if (!component) {
    return problems.map((p) => {
      const line = p.position?.line ?? 1;
      const column = p.position?.column ?? 1;
      const lineText = text.split('\n')[line - 1] ?? '';
      const word = wordAt(lineText, column);
      const endColumn = word && word.start === column ? word.end : Math.max(column + 1, lineText.length + 1);
      return { severity: 'error', message: p.message, startLine: line, startColumn: column, endLine: line, endColumn };
    });
  }
  const out: Diagnostic[] = [];
  const head = locate(text, '');
  if (componentName && component.name !== componentName) {
    out.push({
      severity: 'error',
      message: `The text names '${component.name}'; the component is '${componentName}'.`,
      ...head,
    });
  }
  if (suggestions && !suggestions.ontology) {
    out.push({
      severity: 'warning',
      message: `Lines has no published version of '${suggestions.product}' to check the rules against.`,
      ...head,
    });
  }
  if (suggestions?.ontology) {
    const templates = new Map(suggestions.templates.map((t) => [t.name, t]));
    if (component.kind === 'template') templates.set(component.name, component);
    for (const p of checkComponent(component, suggestions.ontology, templates)) {
      out.push({ severity: 'error', message: p.message, ...locate(text, p.message) });
    }
  }
  return out;
}

/** The canonical layout of a BRL text (parse → print), or null when it does not parse. */
export function formatBrl(text: string): string | null {
  const { component } = tryParseBrl(text);
  return component ? printBrl(component) : null;
}

/**
 * Go to definition in a template use: the template named after `from template` (or the parameter
 * an argument of `with` gives) — the template's canonical text and the line to show.
 */
export function templateDefinitionAt(
  text: string,
  line: number,
  column: number,
  suggestions: BrlSuggestions | null,
): { template: TemplateComponent; text: string; line: number; startColumn: number; endColumn: number } | null {
  const use = /\bfrom\s+template\s+([A-Za-z_]\w*)/i.exec(text);
  const template = use ? suggestions?.templates.find((t) => t.name === use[1]) : undefined;
  if (!template) return null;
  const lineText = text.split('\n')[line - 1] ?? '';
  const at = wordAt(lineText, column);
  if (!at) return null;
  const printed = printBrl(template);
  const printedLines = printed.split('\n');
  const isTemplateName = at.word === template.name && /\bfrom\s+template\s+$/i.test(lineText.slice(0, at.start - 1));
  const parameter = template.parameters.find((p) => p.name === at.word);
  if (!isTemplateName && !parameter) return null;
  const target = parameter
    ? printedLines.findIndex((l) => l.trimStart().startsWith(`parameter ${parameter.name}:`)) + 1
    : 1;
  return { template, text: printed, line: target, startColumn: at.start, endColumn: at.end };
}
