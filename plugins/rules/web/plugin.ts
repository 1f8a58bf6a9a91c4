import IconGavel from '@tabler/icons-react/icons/IconGavel';
import IconFlask from '@tabler/icons-react/icons/IconFlask';
import IconGitCommit from '@tabler/icons-react/icons/IconGitCommit';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { EDITOR_SHORTCUTS, requestEditorAction, type EditorAction } from './editor/editor-commands.js';
import { rulesComponentRoute, rulesProjectsRoute } from './routes.js';

/** The component editor's actions in the palette, offered while the editor is open on its page. */
const EDITOR_COMMANDS: { action: EditorAction; title: string; keywords: string[] }[] = [
  { action: 'save', title: 'Save rule component', keywords: ['save', 'rule', 'component', 'brl'] },
  { action: 'format', title: 'Format rule component', keywords: ['format', 'pretty', 'layout', 'brl'] },
  { action: 'validate', title: 'Validate rules', keywords: ['validate', 'check', 'type check', 'ontology'] },
  { action: 'test', title: 'Run rule tests', keywords: ['test', 'tests', 'run', 'fixtures'] },
  { action: 'changes', title: 'Show uncommitted changes', keywords: ['diff', 'changes', 'compare', 'commit'] },
];
const EDITOR_WHEN = `route == "${rulesComponentRoute.name}" && rules.editorOpen`;

/**
 * The Rules module's screens: the projects with their effective dates and components, and a
 * component's text, which rules authors edit on a draft effective date in Monaco (the editor's
 * actions are palette commands with shortcuts). See docs/rules.md.
 */
export default definePlugin({
  id: 'rules',
  title: 'Rules',
  moduleKey: 'rules',
  routes: [
    {
      name: rulesProjectsRoute.name,
      path: rulesProjectsRoute.path,
      meta: { layout: 'default', title: 'Rules' },
      loader: () => import('./pages/projects-page.js'),
    },
    {
      name: rulesComponentRoute.name,
      path: rulesComponentRoute.path,
      meta: { layout: 'default', title: 'Rule component' },
      loader: () => import('./pages/component-page.js'),
    },
  ],
  nav: [
    {
      id: 'rules.nav',
      title: 'Rules',
      to: rulesProjectsRoute,
      area: 'main',
      order: 320,
      icon: IconGavel,
      command: 'rules.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'rules.open',
      title: 'Open Rules',
      group: 'Rules',
      keywords: ['rules', 'projects', 'ui controls', 'underwriting'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(rulesProjectsRoute.link({})),
    }),
    ...EDITOR_COMMANDS.map(({ action, title, keywords }) =>
      defineCommand({
        id: `rules.editor.${action}`,
        title,
        group: 'Rules',
        keywords,
        // Commands reach the open editor only through the host: the component page listens.
        when: EDITOR_WHEN,
        run: () => requestEditorAction(action),
      }),
    ),
  ],
  shortcuts: [
    { key: 'g r', command: 'rules.open', description: 'Go to Rules', when: '!modalOpen' },
    ...EDITOR_COMMANDS.map(({ action, title }) => ({
      key: EDITOR_SHORTCUTS[action],
      command: `rules.editor.${action}`,
      description: title,
      when: EDITOR_WHEN,
    })),
  ],
  myWork: [
    {
      id: 'rules.uncommitted-changes',
      title: 'Uncommitted rule changes',
      order: 60,
      icon: IconGitCommit,
      // For those who edit rules (and so commit them); they read components too.
      access: { resource: 'rules:component', action: 'update' },
      loader: () => import('./my-work/uncommitted-changes-widget.js'),
    },
    {
      id: 'rules.failed-tests',
      title: 'Failed rule tests',
      order: 61,
      icon: IconFlask,
      // Those who fix rules; the list itself asks `rules:component read`.
      access: { resource: 'rules:component', action: 'update' },
      loader: () => import('./my-work/failed-tests-widget.js'),
    },
  ],
});
