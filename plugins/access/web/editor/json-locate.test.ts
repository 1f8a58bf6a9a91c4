import { describe, expect, it } from 'vitest';
import { locatePointer } from './json-locate.js';

const text = `[
  { "sid": "A", "effect": "allow", "actions": ["read"], "resources": ["claims:*"] },
  { "effect": "permit", "actions": [], "resources": ["x"], "conditions": [{ "attribute": "record.a", "operator": "eq", "value": 1 }] }
]`;
const at = (pointer: string) => {
  const range = locatePointer(text, pointer);
  return range && text.slice(range.start, range.end);
};

describe('locatePointer', () => {
  it('finds values by pointer', () => {
    expect(at('/1/effect')).toBe('"permit"');
    expect(at('/0/actions/0')).toBe('"read"');
    expect(at('/1/actions')).toBe('[]');
    expect(at('/1/conditions/0/value')).toBe('1');
    expect(at('')).toBe(text);
  });

  it('falls back to the nearest ancestor, and reads broken text up to the error', () => {
    expect(at('/0/conditions')).toMatch(/^\{ "sid": "A"/);
    const broken = '[{"effect": "allow", "actions": ["read"], "resources": [';
    const range = locatePointer(broken, '/0/actions');
    expect(broken.slice(range!.start, range!.end)).toBe('["read"]');
    expect(locatePointer('', '/0')).toBeNull();
  });
});
