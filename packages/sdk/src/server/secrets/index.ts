export * from './secrets.js';
