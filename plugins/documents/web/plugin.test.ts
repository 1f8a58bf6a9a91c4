import { describe, expect, it } from 'vitest';
import plugin from './plugin.js';

describe('documents web plugin', () => {
  it('opens the template tree with a command bound to g d, all behind ui:documents', () => {
    expect(plugin.moduleKey).toBe('documents');
    expect(plugin.routes.map((route) => [route.name, route.path])).toEqual([
      ['documents', '/documents'],
      ['documents:template', '/documents/templates/:templateId'],
      ['documents:form', '/documents/forms/:formId'],
      ['documents:settings', '/documents/settings'],
      ['documents:library', '/documents/library'],
      ['documents:production', '/documents/production'],
    ]);
    expect(plugin.commands.map((command) => command.id)).toEqual(['documents.open', 'documents.production']);
    expect(plugin.shortcuts).toEqual([expect.objectContaining({ key: 'g d', command: 'documents.open' })]);
  });
});
