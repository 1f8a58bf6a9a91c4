export * from './test-server.js';
export * from './machine-harness.js';
export { createMemoryStorage } from '../web/key-value-storage.js';
export * from './render-in-test-host.js';
export * from './test-mail-server.js';
export * from './sweep.js';
export * from './sign-in-as.js';
export * from './zip-bombs.js';
