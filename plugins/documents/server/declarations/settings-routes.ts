import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { can } from '../permissions.js';
import {
  checkDeclarationsSettings,
  declarationsSettings,
  readDeclarationsSettings,
  writeDeclarationsSettings,
} from './settings.js';

const tags = ['documents'];
const security = [{ bearer: [] }];

/** `GET`/`PUT /api/documents/settings/declarations/`: dec page per line and the form rules. */
export function registerSettingsRoutes(router: AtriumRouter, context: ServerPluginContext) {
  router.get(
    '/documents/settings/declarations/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: "The declarations settings: each line's dec page and the form rules.", tags, security },
    },
    async () => readDeclarationsSettings(context.db),
  );

  router.put(
    '/documents/settings/declarations/',
    {
      config: { access: can('template', 'publish') },
      schema: {
        summary: 'Replaces the declarations settings (templates written for a policy, published forms).',
        tags,
        security,
        body: declarationsSettings,
      },
    },
    async (request) => {
      await checkDeclarationsSettings(context.db, request.body);
      await writeDeclarationsSettings(context.db, request.body, request.principal.username);
      return readDeclarationsSettings(context.db);
    },
  );
}
