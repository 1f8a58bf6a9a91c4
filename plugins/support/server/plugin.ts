import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import { supportPermissions } from './permissions.js';
import { loadUserProfile } from './load-user-profile.js';
import { submitIssue } from './submit-issue.js';
import { ticketRoutes } from './ticket-routes.js';

/**
 * Support tickets (docs/support.md): the classic gateway's `more.oops_issue_tracker submit_issue`,
 * stored here and mailed to the support desk; the tickets under /api/support for the outstanding
 * tickets and Support Tools pages.
 */
export default defineServerPlugin({
  id: 'support',
  title: 'Support',
  deps: [USER_DIRECTORY],
  dbSchema: 'support',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: supportPermissions,
  gateway: [submitIssue, loadUserProfile],
  routes(router, context) {
    ticketRoutes(router, context);
  },
});
