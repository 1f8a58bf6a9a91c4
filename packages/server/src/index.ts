export { createAtrium, type Atrium, type AtriumOptions } from './atrium.js';
export { loadConfig, type AtriumConfig } from './config.js';
export { openDatabase, type DatabaseHandle } from './database/connect.js';
export { ensurePgliteTemplate } from './database/pglite-template.js';
export type { AccessServices, RegisteredRoute } from './http/access-control.js';
export { discoverServerPlugins } from './installed-plugins.js';
export { CACHE_DIR, DEFAULT_WEB_DIST, REPO_ROOT } from './paths.js';
