export * from './access.js';
export * from './define-server-plugin.js';
export * from './http-problem.js';
export * from './jsonapi/index.js';
export * from './record-filter-sql.js';
export * from './object-storage.js';
export * from './validation-issues.js';
export { z } from 'zod';
export * from './uploaded-file.js';
