import IconHandStop from '@tabler/icons-react/icons/IconHandStop';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { helloPageRoute } from './routes.js';

/**
 * The smallest web plugin: one page, one sidebar link, one command. docs/plugins.md walks through it. Its page is public so it can be opened before anyone
 * can sign in.
 */
export default definePlugin({
  id: 'hello',
  title: 'Hello (example plugin)',
  routes: [
    {
      name: helloPageRoute.name,
      path: helloPageRoute.path,
      meta: { layout: 'default', requiresAuth: false, title: 'Hello' },
      loader: () => import('./pages/hello-page.js'),
    },
  ],
  nav: [{ id: 'hello.nav', title: 'Hello', to: helloPageRoute, area: 'main', order: 1000, icon: IconHandStop }],
  commands: [
    defineCommand({
      id: 'hello.greet',
      title: 'Say Hello',
      group: 'Hello',
      keywords: ['greeting', 'example'],
      async run(_args, { services }) {
        // The server half's public route; a failure is shown, not thrown into the palette.
        try {
          const response = await fetch('/api/hello/greeting?name=Atrium');
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const { message } = (await response.json()) as { message: string };
          services.showToast({ message, kind: 'success' });
        } catch {
          services.showToast({ message: 'The hello service did not answer.', kind: 'error' });
        }
      },
    }),
  ],
});
