export * from './core/tables.js';
export * from './ledger/tables.js';
export * from './import/tables.js';
export * from './ledger/clearance-tables.js';
