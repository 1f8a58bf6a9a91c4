export * from './secrets.js';
export * from './ssn.js';
