import { describe, expect, it } from 'vitest';
import { releaseDateLabel } from './release-date.js';

describe('releaseDateLabel', () => {
  const now = new Date(2026, 10, 27, 12); // Friday 27 Nov 2026, local time
  it('names the weekday under 7 days, the date from 7 days on', () => {
    expect(releaseDateLabel(new Date(2026, 10, 24, 9).toISOString(), now)).toBe('Tuesday');
    expect(releaseDateLabel(new Date(2026, 10, 27, 8).toISOString(), now)).toBe('Friday');
    expect(releaseDateLabel(new Date(2026, 10, 20, 12).toISOString(), now)).toBe('2026-11-20');
    expect(releaseDateLabel(new Date(2026, 10, 20, 13).toISOString(), now)).toBe('Friday');
    expect(releaseDateLabel('not a date', now)).toBe('');
  });
});
