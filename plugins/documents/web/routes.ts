import { createRouteRef } from '@atrium/sdk';

/** The module page (spec route name `documents`) and one template's page. */
export const documentsRoute = createRouteRef({ name: 'documents', path: '/documents' });
export const documentsTemplateRoute = createRouteRef({
  name: 'documents:template',
  path: '/documents/templates/:templateId',
});
