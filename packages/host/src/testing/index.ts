/**
 * `@atrium/host/testing`: the shell mounted in jsdom for tests. Plugins use it through
 * `renderInTestHost` in `@atrium/sdk/testing`, never directly.
 */
export {
  DEMO_CARRIER,
  mountHost,
  sessionFor,
  type FakeBackend,
  type MountedHost,
  type RenderHostOptions,
} from './mount-host.js';
export { installDomPolyfills } from './dom-polyfills.js';
