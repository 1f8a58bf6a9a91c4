import { createRouteRef } from '@atrium/sdk';

/** Typed refs to the hello plugin's pages; other modules link with `helloPageRoute.link({})`. */
export const helloPageRoute = createRouteRef({ name: 'hello:page', path: '/hello' });
