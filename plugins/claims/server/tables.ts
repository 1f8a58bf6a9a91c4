export * from './core/tables.js';
export * from './ledger/tables.js';
