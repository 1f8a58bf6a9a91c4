import { printBrl, tryParseBrl } from '@atrium/rating/rules';
import type { ComponentJson } from '../../shared/api-types.js';

/** The component types an author creates from the screen, in the order the dialog offers them. */
export const CREATABLE_TYPES: ComponentJson['component_type'][] = ['rule', 'template', 'test'];

/** What the server accepts as a component name (letters, digits and underscores, starting with a letter). */
export const COMPONENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** What the server accepts as a folder (names separated by /, or none). */
export const FOLDER = /^([A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*)?$/;

/** `Usage is required` → `usage_is_required`: a name suggested from a label. */
export function nameFromLabel(label: string): string {
  const name = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return /^[a-z_]/.test(name) ? name : name ? `c_${name}` : '';
}

/**
 * The first text of a new component: a rule or template that parses (header, category, the risk
 * type it applies to, `when always`, no actions yet), a test with the shape the test job expects.
 */
export function newComponentBody(
  type: ComponentJson['component_type'],
  name: string,
  label: string,
  appliesTo: string,
  asOf: string,
): string {
  const quoted = `'${label.replace(/'/g, "\\'")}'`;
  switch (type) {
    case 'rule':
    case 'template':
      return `${type} ${name}${label ? ` ${quoted}` : ''}\n  category validation\n  applies to ${appliesTo}\nwhen\n  always\nthen\nend\n`;
    case 'test':
      return `${JSON.stringify(
        {
          context: { asOf, user: { roles: ['Underwriter'] }, risk: { id: 'r1', type: appliesTo, field_answers: {} } },
          expect: { actions: {}, issues: [] },
        },
        null,
        2,
      )}\n`;
    default:
      return '';
  }
}

/**
 * The text of a copy named `name`: a BRL component's header is renamed in its tree (then printed),
 * never by replacing text; other types (tests are JSON) are copied as they are. A BRL text that
 * does not parse is copied as it is too (validate will say what is wrong with it).
 */
export function clonedBody(type: ComponentJson['component_type'], body: string, name: string, label: string): string {
  if (type !== 'rule' && type !== 'template') return body;
  const { component } = tryParseBrl(body);
  if (!component) return body;
  return printBrl({ ...component, name, ...(label ? { label } : {}) });
}

/** One row of a project's component tree: a package, a folder or a component. */
export interface TreeRow {
  id: string;
  kind: 'package' | 'folder' | 'component';
  label: string;
  component?: ComponentJson;
  /** A folder's package and path (`ui/deep`). */
  packageId?: number;
  path?: string;
  children?: TreeRow[];
}

/**
 * A project's packages → folders → components (folders and components sorted by name), from the
 * components of its current effective date and its packages (an empty package is shown too).
 */
export function componentTree(packages: { id: number; name: string }[], components: ComponentJson[]): TreeRow[] {
  const byName = (a: TreeRow, b: TreeRow) => a.label.localeCompare(b.label);
  return packages.map((p) => {
    const root: TreeRow = { id: `package-${p.id}`, kind: 'package', label: p.name, children: [] };
    for (const c of components.filter((x) => x.package === p.id)) {
      let node = root;
      let path = '';
      for (const segment of c.folder.split('/').filter(Boolean)) {
        path = path ? `${path}/${segment}` : segment;
        let child = node.children!.find((x) => x.kind === 'folder' && x.label === segment);
        if (!child) {
          child = { id: `folder-${p.id}-${path}`, kind: 'folder', label: segment, packageId: p.id, path, children: [] };
          node.children!.push(child);
        }
        node = child;
      }
      node.children!.push({ id: `component-${c.id}`, kind: 'component', label: c.label || c.name, component: c });
    }
    const sort = (node: TreeRow) => {
      if (!node.children) return;
      const folders = node.children.filter((x) => x.kind === 'folder').sort(byName);
      const leaves = node.children.filter((x) => x.kind === 'component').sort(byName);
      folders.forEach(sort);
      node.children = [...folders, ...leaves];
    };
    sort(root);
    return root;
  });
}
