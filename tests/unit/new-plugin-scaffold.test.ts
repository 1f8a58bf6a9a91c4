import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run new:plugin <id>` into a scratch folder inside the repository (so that its imports of
 * @atrium/sdk resolve): the generated halves load, validate and declare what docs/plugins.md says.
 */
const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(root, '.scaffold-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('new:plugin scaffold', () => {
  it('generates a module whose web and server halves register', async () => {
    const result = spawnSync(
      process.execPath,
      ['scripts/new-plugin.mjs', 'field-notes', '--dir', scratch, '--no-migrations'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const dir = path.join(scratch, 'field-notes');
    const web = (await import(path.join(dir, 'web', 'plugin.ts'))).default;
    expect(web.moduleKey).toBe('field-notes');
    expect(web.commands.map((c: { id: string }) => c.id)).toEqual(['field-notes.open']);
    expect(web.shortcuts[0]).toMatchObject({ command: 'field-notes.open', key: expect.stringMatching(/^g [a-z]$/) });
    const server = (await import(path.join(dir, 'server', 'plugin.ts'))).default;
    expect(server.id).toBe('field-notes');
    expect(server.dbSchema).toBe('field_notes');
    expect(server.permissions).toContainEqual(
      expect.objectContaining({ resource: 'ui:field-notes', action: 'ViewModule' }),
    );
    expect(server.defaultGrants.roles).toContainEqual({
      role: 'Claims Adjuster',
      permissions: [
        { resource: 'ui:field-notes', action: 'ViewModule' },
        { resource: 'field-notes:entry', action: 'read' },
        { resource: 'field-notes:entry', action: 'create' },
        { resource: 'field-notes:entry', action: 'update' },
      ],
    });
  });

  it('gives a diary a chord no installed module or the shell binds (documents has `g d`)', async () => {
    const result = spawnSync(
      process.execPath,
      ['scripts/new-plugin.mjs', 'diary', '--dir', scratch, '--no-migrations'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const diary = (await import(path.join(scratch, 'diary', 'web', 'plugin.ts'))).default;
    const key: string = diary.shortcuts[0].key;
    const taken = new Map<string, string>();
    for (const name of readdirSync(path.join(root, 'plugins'))) {
      const manifest = path.join(root, 'plugins', name, 'web', 'plugin.ts');
      if (!existsSync(manifest)) continue;
      const plugin = (await import(manifest)).default as { shortcuts: { key: string; command: string }[] };
      for (const shortcut of plugin.shortcuts) taken.set(shortcut.key, shortcut.command);
    }
    expect(taken.get('g d')).toBe('documents.open');
    expect(key).not.toBe('g d');
    expect(key).toMatch(/^g [a-z]$/);
    expect(taken.get(key), `${key} is already bound`).toBeUndefined();
    // The shell's own chords and the ones issue 13 reserves for modules.
    expect(['g h', 'g p', 'g c', 'g n', 'g l', 'g q', 'g a', 'g u', 'g r', 'g i', 'g s']).not.toContain(key);
    expect(result.stdout).toContain(`(chord ${key})`);
  });
});
