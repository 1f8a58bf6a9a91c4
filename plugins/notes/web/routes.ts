import { createRouteRef } from '@atrium/sdk';

/** The notes list: the notes the user wrote and the notes that name them (spec route notes:global-list). */
export const notesGlobalListRoute = createRouteRef({ name: 'notes:global-list', path: '/notes' });
