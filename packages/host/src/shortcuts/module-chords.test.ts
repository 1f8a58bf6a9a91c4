import { createCommandRegistry, createContextService, createKeybindingManager, type HostServices } from '@atrium/sdk';
import { expect, it } from 'vitest';
import access from '../../../../plugins/access/web/plugin.js';
import documents from '../../../../plugins/documents/web/plugin.js';
import integrations from '../../../../plugins/integrations/web/plugin.js';
import lines from '../../../../plugins/lines/web/plugin.js';
import quote from '../../../../plugins/quote/web/plugin.js';
import rules from '../../../../plugins/rules/web/plugin.js';
import settings from '../../../../plugins/settings/web/plugin.js';
import users from '../../../../plugins/users/web/plugin.js';
import { createHostPlugin } from '../host-plugin.js';

it('opens each module with its g chord (g h All Modules, g a, g u, g l, g q, g d, g r, g i, g s)', async () => {
  const context = createContextService();
  context.forPlugin('host').set('signedIn', true);
  const navigated: string[] = [];
  const services = { navigate: (to: string) => void navigated.push(to) } as unknown as HostServices;
  const commands = createCommandRegistry({ context, services });
  const keys = createKeybindingManager({ context, execute: (command, args) => commands.executeCommand(command, args) });
  const plugins = [createHostPlugin({ withLoginPlaceholder: true }), access, lines, users, quote, documents, rules];
  for (const plugin of [...plugins, integrations, settings]) {
    for (const command of plugin.commands) commands.registerCommand(command, { source: plugin.id });
    for (const shortcut of plugin.shortcuts) keys.register(shortcut, { source: plugin.id });
  }
  expect(keys.conflicts()).toEqual([]);
  for (const letter of ['a', 'u', 'l', 'h', 'q', 'd', 'r', 'i', 's']) {
    keys.handleKeyEvent({ key: 'g' });
    keys.handleKeyEvent({ key: letter });
  }
  await Promise.resolve();
  expect(navigated).toEqual([
    '/access',
    '/users',
    '/lines',
    '/',
    '/quote',
    '/documents',
    '/rules',
    '/integrations/dashboard',
    '/settings',
  ]);
});
