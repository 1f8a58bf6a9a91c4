/** The accounting ledger tables (claims-ledger fills this module). */
export {};
