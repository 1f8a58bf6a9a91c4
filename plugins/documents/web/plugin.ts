import IconFileText from '@tabler/icons-react/icons/IconFileText';
import { defineCommand, definePlugin } from '@atrium/sdk';
import {
  documentsFormRoute,
  documentsLibraryRoute,
  documentsProductionRoute,
  documentsRoute,
  documentsSettingsRoute,
  documentsTemplateRoute,
} from './routes.js';

/**
 * The Documents module's web half (docs/documents.md): the template tree at /documents and a
 * template's page (source, live preview, versions) and an imported PDF form's page (field mapping). `moduleKey` ties the pages, the sidebar link,
 * the palette command and `g d` to `ui:documents`.
 */
export default definePlugin({
  id: 'documents',
  title: 'Documents',
  moduleKey: 'documents',
  routes: [
    {
      name: documentsRoute.name,
      path: documentsRoute.path,
      meta: { layout: 'default', title: 'Documents' },
      loader: () => import('./pages/documents-page.js'),
    },
    {
      name: documentsTemplateRoute.name,
      path: documentsTemplateRoute.path,
      meta: { layout: 'default', title: 'Document template' },
      loader: () => import('./pages/template-page.js'),
    },
    {
      name: documentsFormRoute.name,
      path: documentsFormRoute.path,
      meta: { layout: 'default', title: 'Imported PDF form' },
      loader: () => import('./pages/form-page.js'),
    },
    {
      name: documentsSettingsRoute.name,
      path: documentsSettingsRoute.path,
      meta: { layout: 'default', title: 'Declarations settings' },
      loader: () => import('./pages/settings-page.js'),
    },
    {
      name: documentsLibraryRoute.name,
      path: documentsLibraryRoute.path,
      meta: { layout: 'default', title: 'Components and assets' },
      loader: () => import('./pages/library-page.js'),
    },
    {
      name: documentsProductionRoute.name,
      path: documentsProductionRoute.path,
      meta: { layout: 'default', title: 'Production documents' },
      loader: () => import('./pages/production-page.js'),
    },
  ],
  nav: [
    {
      id: 'documents.nav',
      title: 'Documents',
      to: documentsRoute,
      area: 'main',
      // The spec's module order: … Reports, Documents, Rules.
      order: 310,
      icon: IconFileText,
      command: 'documents.open',
    },
  ],
  commands: [
    defineCommand({
      id: 'documents.open',
      title: 'Open Documents',
      group: 'Documents',
      keywords: ['documents', 'templates', 'declarations', 'letters', 'typst'],
      run: (_args, { services }) => services.navigate(documentsRoute.link({})),
    }),
    defineCommand({
      id: 'documents.production',
      title: 'Open production documents and the print queue',
      group: 'Documents',
      keywords: ['print', 'print queue', 'e-mail', 'production documents', 'declarations'],
      run: (_args, { services }) => services.navigate(documentsProductionRoute.link({})),
    }),
  ],
  shortcuts: [{ key: 'g d', command: 'documents.open', description: 'Go to Documents', when: '!modalOpen' }],
});
