// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { onEditorAction, shortcutLabel, type EditorAction } from './editor/editor-commands.js';
import plugin from './plugin.js';

describe('rules web plugin', () => {
  it('offers the editor actions as palette commands with shortcuts, only while the editor is open', async () => {
    const editor = plugin.commands.filter((c) => c.id.startsWith('rules.editor.'));
    expect(editor.map((c) => [c.id, c.title])).toEqual([
      ['rules.editor.save', 'Save rule component'],
      ['rules.editor.format', 'Format rule component'],
      ['rules.editor.validate', 'Validate rules'],
      ['rules.editor.test', 'Run rule tests'],
      ['rules.editor.changes', 'Show uncommitted changes'],
    ]);
    for (const c of editor) expect(c.when).toBe('route == "rules:component" && rules.editorOpen');
    expect(plugin.shortcuts.map((s) => [s.key, s.command])).toEqual([
      ['g r', 'rules.open'],
      ['mod+s', 'rules.editor.save'],
      ['alt+shift+f', 'rules.editor.format'],
      ['alt+shift+v', 'rules.editor.validate'],
      ['alt+shift+t', 'rules.editor.test'],
      ['alt+shift+d', 'rules.editor.changes'],
    ]);
    expect(shortcutLabel('validate')).toBe('Alt+Shift+V');

    // A command reaches the open page through a window event.
    const heard: EditorAction[] = [];
    const stop = onEditorAction((action) => heard.push(action));
    await editor.find((c) => c.id === 'rules.editor.validate')!.run(undefined as never, {} as never);
    stop();
    await editor.find((c) => c.id === 'rules.editor.save')!.run(undefined as never, {} as never);
    expect(heard).toEqual(['validate']);
  });
});
