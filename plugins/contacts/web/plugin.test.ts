import { describe, expect, it } from 'vitest';
import plugin from './plugin.js';

describe('contacts web plugin', () => {
  it('has the contact search and contact pages, a palette command and the Contact quick search, behind ui:contacts', () => {
    expect(plugin.moduleKey).toBe('contacts');
    expect(plugin.routes.map((route) => route.path)).toEqual(['/contacts', '/contacts/:contactId']);
    expect(plugin.commands.map((command) => command.id)).toEqual(['contacts.open']);
    // `g n` is bound by the shell to the provider of type Contact; contacts have no Tab prefix.
    expect(plugin.quickSearch).toEqual([expect.objectContaining({ type: 'Contact' })]);
    expect(plugin.quickSearch?.[0]?.prefix).toBeUndefined();
  });
});
