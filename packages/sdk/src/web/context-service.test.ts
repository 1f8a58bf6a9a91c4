import { describe, expect, it, vi } from 'vitest';
import { createContextService } from './context-service.js';

describe('context service', () => {
  it('starts with the host keys and evaluates clauses against them', () => {
    const context = createContextService({ role: 'Administrator' });
    expect(context.snapshot()).toEqual({
      route: '',
      role: 'Administrator',
      modalOpen: false,
      editorFocus: false,
      inputFocus: false,
    });
    expect(context.evaluate("!inputFocus && role == 'Administrator'")).toBe(true);
    context.setHost('inputFocus', true);
    expect(context.evaluate("!inputFocus && role == 'Administrator'")).toBe(false);
  });

  it('refuses unknown host keys', () => {
    const context = createContextService();
    expect(() => context.setHost('claims.x' as never, true as never)).toThrow(/not a host context key/);
    expect(() => context.setHostMany({ nope: 1 } as never)).toThrow(/not a host context key/);
  });

  it('confines plugin writes to <pluginId>.* and clears them together', () => {
    const context = createContextService();
    const claims = context.forPlugin('claims');
    claims.set('hasDraft', true);
    claims.set('status', 'open');
    expect(context.get('claims.hasDraft')).toBe(true);
    expect(context.evaluate("claims.hasDraft && claims.status == 'open'")).toBe(true);
    expect(() => claims.set('claims.hasDraft', false)).toThrow(/without the 'claims.' prefix/);
    claims.clear();
    expect(context.get('claims.hasDraft')).toBeUndefined();
    expect(context.get('route')).toBe('');
  });

  it('notifies on real changes only and gives a new snapshot after each', () => {
    const context = createContextService();
    const listener = vi.fn();
    context.subscribe(listener);
    const before = context.snapshot();
    context.setHost('modalOpen', false);
    expect(listener).not.toHaveBeenCalled();
    expect(context.snapshot()).toBe(before);
    context.setHostMany({ modalOpen: true, route: 'claims:list' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(context.snapshot()).not.toBe(before);
    expect(context.snapshot()).toMatchObject({ modalOpen: true, route: 'claims:list' });
  });
});
