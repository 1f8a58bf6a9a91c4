/**
 * Action and resource patterns: `*` matches any run of characters (including ':'), everything else
 * matches itself, case-sensitively. `claims:*` matches `claims:payment`; `*` matches everything.
 */
export type PatternMatcher = (value: string) => boolean;

export function compilePattern(pattern: string): PatternMatcher {
  if (pattern === '*') return () => true;
  const star = pattern.indexOf('*');
  if (star < 0) return (value) => value === pattern;
  if (star === pattern.length - 1) {
    const prefix = pattern.slice(0, -1);
    return (value) => value.startsWith(prefix);
  }
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (value) => regex.test(value);
}

export function compilePatterns(patterns: string[]): PatternMatcher {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const wild = patterns.filter((p) => p.includes('*')).map(compilePattern);
  if (wild.length === 0) return (value) => exact.has(value);
  return (value) => exact.has(value) || wild.some((match) => match(value));
}

export const isWildcard = (pattern: string) => pattern.includes('*');
