import { describe, expect, it } from 'vitest';
import type { ContextValue } from './context-keys.js';
import { compileWhen, parseWhen, parseWhenAst, WhenParseError, whenClausesOverlap } from './when-expression.js';

const ctx = (values: Record<string, ContextValue>) => (key: string) => values[key];
const evalWhen = (source: string, values: Record<string, ContextValue>) => parseWhen(source).evaluate(ctx(values));

describe('when expressions', () => {
  it('evaluates the spec example', () => {
    const source = "!inputFocus && role == 'Administrator'";
    expect(evalWhen(source, { inputFocus: false, role: 'Administrator' })).toBe(true);
    expect(evalWhen(source, { inputFocus: true, role: 'Administrator' })).toBe(false);
    expect(evalWhen(source, { inputFocus: false, role: 'Agent' })).toBe(false);
  });

  it('gives && precedence over || and honours parentheses', () => {
    expect(evalWhen('a || b && c', { a: true, b: false, c: false })).toBe(true);
    expect(evalWhen('(a || b) && c', { a: true, b: false, c: false })).toBe(false);
    expect(evalWhen('!(a && b)', { a: true, b: true })).toBe(false);
    expect(evalWhen('!!a', { a: 'x' })).toBe(true);
  });

  it('reads plugin keys with dots and compares strings, numbers, booleans and null', () => {
    expect(
      evalWhen("claims.status == 'open' && claims.count != 0", { 'claims.status': 'open', 'claims.count': 2 }),
    ).toBe(true);
    expect(evalWhen('claims.count == 2', { 'claims.count': 2 })).toBe(true);
    expect(evalWhen("route == 'claims:exposures'", { route: 'claims:exposures' })).toBe(true);
    expect(evalWhen('modalOpen == false', { modalOpen: false })).toBe(true);
    // Unset keys equal null, so `role == null` works before a role is chosen.
    expect(evalWhen('role == null', {})).toBe(true);
    expect(evalWhen('role != null', { role: 'Agent' })).toBe(true);
    expect(evalWhen('"a b" == x', { x: 'a b' })).toBe(true);
  });

  it('treats a bare key as a truthiness test', () => {
    expect(evalWhen('claims.hasDraft', {})).toBe(false);
    expect(evalWhen('claims.hasDraft', { 'claims.hasDraft': 'yes' })).toBe(true);
  });

  it.each([
    ['role ==', 7, 'expected a context key, a value or ( but found end of expression'],
    ['a && && b', 5, "found '&&'"],
    ["role == 'Admin", 8, 'unterminated string'],
    ['a & b', 2, "unexpected '&' (did you mean '&&'?)"],
    ['(a || b', 7, "expected ')'"],
    ['a b', 2, "found 'b'"],
    ['a == b == c', 7, "found '=='"],
    ['a # b', 2, "unexpected character '#'"],
    ['', 0, 'empty expression'],
  ])('names the position of a parse error in %j', (source, position, reason) => {
    try {
      parseWhenAst(source);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WhenParseError);
      expect((error as WhenParseError).position).toBe(position);
      expect((error as Error).message).toContain(`at position ${position}`);
      expect((error as Error).message).toContain(reason);
    }
  });

  it('parses each distinct text once', () => {
    expect(parseWhen('a && b')).toBe(parseWhen('a && b'));
    expect(parseWhen('a && b').keys).toEqual(['a', 'b']);
  });

  it('treats a missing or blank clause as always true', () => {
    expect(compileWhen(undefined).evaluate(ctx({}))).toBe(true);
    expect(compileWhen('  ').evaluate(ctx({}))).toBe(true);
  });

  it('evaluates a compiled clause repeatedly with the same answer', () => {
    const compiled = parseWhen("!inputFocus && (role == 'Administrator' || role == 'Employee') && !modalOpen");
    const lookup = ctx({ inputFocus: false, role: 'Employee', modalOpen: false });
    let truthy = 0;
    for (let i = 0; i < 100_000; i++) if (compiled.evaluate(lookup)) truthy++;
    expect(truthy).toBe(100_000);
    expect(compiled.evaluate(ctx({ inputFocus: true, role: 'Employee', modalOpen: false }))).toBe(false);
  });
});

describe('whenClausesOverlap', () => {
  const overlap = (a?: string, b?: string) => whenClausesOverlap(compileWhen(a), compileWhen(b));

  it('finds contradictions on the same key', () => {
    expect(overlap('editorFocus', '!editorFocus')).toBe(false);
    expect(overlap("role == 'Agent'", "role == 'Administrator'")).toBe(false);
    expect(overlap("role == 'Agent'", "role != 'Agent'")).toBe(false);
    expect(overlap("!inputFocus && route == 'a'", "route == 'b'")).toBe(false);
    expect(overlap('!role', "role == 'Agent'")).toBe(false);
  });

  it('counts everything else as overlapping', () => {
    expect(overlap(undefined, undefined)).toBe(true);
    expect(overlap(undefined, 'modalOpen')).toBe(true);
    expect(overlap("role == 'Agent'", "role == 'Agent' && modalOpen")).toBe(true);
    expect(overlap("role != 'Agent'", "role != 'Administrator'")).toBe(true);
    // Too complex to decide: conservatively overlapping.
    expect(overlap('a || b', '!a')).toBe(true);
    expect(overlap('!k', "k == ''")).toBe(true);
  });
});
