import type { ConnectionStatus } from '../../shared/vendors.js';

export const statusColor = (status: ConnectionStatus) =>
  ({ connected: 'green', error: 'orange', expired: 'red', disconnected: 'gray', not_configured: 'gray' })[status];
