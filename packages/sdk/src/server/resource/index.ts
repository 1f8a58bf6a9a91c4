export * from './declare.js';
export * from './include-access.js';
export * from './register.js';
export { listQuerySchema } from './list-query.js';
