import { createRouteRef } from '@atrium/sdk';

export const documentsPageRoute = createRouteRef({ name: 'documents:page', path: '/documents' });
