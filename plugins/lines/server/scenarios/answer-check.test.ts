import { describe, expect, it } from 'vitest';
import { checkAnswer, parseAnswerDate } from './answer-check.js';

const field = (type: Parameters<typeof checkAnswer>[0]['type'], options?: string[]) => ({
  name: 'x',
  label: 'Roof year',
  type,
  options,
});

describe('checkAnswer', () => {
  it('checks numbers, booleans and text', () => {
    expect(checkAnswer(field('number'), '2014')).toEqual({ valid: true, value: '2014' });
    expect(checkAnswer(field('number'), 'twenty')).toEqual({ valid: false, message: 'Roof year must be a number.' });
    expect(checkAnswer(field('boolean'), 'true')).toEqual({ valid: true, value: true });
    expect(checkAnswer(field('boolean'), 'yes')).toMatchObject({ valid: false });
    expect(checkAnswer(field('string'), { a: 1 })).toMatchObject({ valid: false, message: 'Roof year must be text.' });
    expect(checkAnswer(field('number'), null)).toEqual({ valid: true, value: null });
  });

  it('checks enum options and refuses answers to computed fields', () => {
    expect(checkAnswer(field('enum', ['frame', 'masonry']), 'frame')).toEqual({ valid: true, value: 'frame' });
    expect(checkAnswer(field('enum', ['frame', 'masonry']), 'straw')).toEqual({
      valid: false,
      message: 'Roof year must be one of: frame, masonry.',
    });
    expect(checkAnswer(field('computed'), 3)).toMatchObject({
      message: 'Roof year is computed and cannot be answered.',
    });
  });

  it('reads dates as YYYY-MM-DD, ISO or MM/DD/YYYY and refuses impossible ones', () => {
    expect(parseAnswerDate('2026-02-28')).toBe('2026-02-28');
    expect(parseAnswerDate('2026-02-28T10:00:00Z')).toBe('2026-02-28');
    expect(parseAnswerDate('2/3/2026')).toBe('2026-02-03');
    expect(parseAnswerDate('2026-02-30')).toBeNull();
    expect(checkAnswer(field('date'), '13/01/2026')).toMatchObject({ valid: false });
  });
});
