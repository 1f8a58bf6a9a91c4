import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { mountHost, type MountedHost, type RenderHostOptions } from './mount-host.js';

export { DEMO_CARRIER, sessionFor, type FakeBackend, type RenderHostOptions } from './mount-host.js';

/** The host's own tests: mountHost, torn down after each test. */
const mounted: MountedHost[] = [];
afterEach(() => {
  cleanup();
  for (const host of mounted.splice(0)) host.dispose();
});

export function renderHost(options: RenderHostOptions = {}): MountedHost {
  const host = mountHost(options);
  mounted.push(host);
  return host;
}
