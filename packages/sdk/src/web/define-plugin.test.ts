import { describe, expect, it } from 'vitest';
import { defineCommand } from './command.js';
import { definePlugin } from './define-plugin.js';

describe('definePlugin', () => {
  const open = defineCommand({ id: 'diary.open', title: 'Open Diary', run: () => undefined });

  it('refuses a shortcut to one of its own commands that it does not define', () => {
    expect(() =>
      definePlugin({
        id: 'diary',
        title: 'Diary',
        commands: [open],
        shortcuts: [{ key: 'g d', command: 'diary.opne' }],
      }),
    ).toThrow("shortcut 'g d' binds 'diary.opne', which this plugin does not define");
  });

  it('accepts shortcuts to its own commands and leaves other commands to the host', () => {
    const plugin = definePlugin({
      id: 'diary',
      title: 'Diary',
      commands: [open],
      shortcuts: [
        { key: 'g d', command: 'diary.open' },
        { key: 'g y', command: 'host.openPalette' },
      ],
    });
    expect(plugin.shortcuts).toHaveLength(2);
  });
});
