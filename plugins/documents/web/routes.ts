import { createRouteRef } from '@atrium/sdk';

/** The module page (spec route name `documents`), one template's page and one imported PDF form's page. */
export const documentsRoute = createRouteRef({ name: 'documents', path: '/documents' });
export const documentsTemplateRoute = createRouteRef({
  name: 'documents:template',
  path: '/documents/templates/:templateId',
});
export const documentsFormRoute = createRouteRef({
  name: 'documents:form',
  path: '/documents/forms/:formId',
});
export const documentsSettingsRoute = createRouteRef({ name: 'documents:settings', path: '/documents/settings' });
export const documentsLibraryRoute = createRouteRef({ name: 'documents:library', path: '/documents/library' });
export const documentsProductionRoute = createRouteRef({
  name: 'documents:production',
  path: '/documents/production',
});
