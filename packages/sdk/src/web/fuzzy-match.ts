/**
 * Fuzzy matching for the command palette, built for 10,000 entries per keystroke: haystacks are
 * lowercased once when the index is built, matching walks them with indexOf/charCodeAt (no regex, no
 * per-item allocation), and only the top `limit` results are sorted.
 *
 * Ranking, per query word (all words must match, in title or keywords):
 *   title substring (whole word > word start > anywhere, earlier is better)
 *   > keyword substring > title subsequence (consecutive and word-start characters earn more)
 *   > keyword subsequence.
 * Ties go to the shorter title, then to the original order.
 */

export interface FuzzyText {
  title: string;
  keywords?: readonly string[];
}

export interface FuzzyResult<T> {
  item: T;
  score: number;
  /** Original index, the final tie-breaker. */
  index: number;
}

export interface FuzzyIndex<T> {
  readonly size: number;
  search(query: string, options?: { limit?: number }): FuzzyResult<T>[];
}

interface Entry<T> {
  item: T;
  title: string;
  keywords: string;
  index: number;
}

const SEPARATORS = new Set([32, 45, 95, 58, 46, 47, 40, 41, 44]); // space - _ : . / ( ) ,

function isWordStart(haystack: string, at: number): boolean {
  return at === 0 || SEPARATORS.has(haystack.charCodeAt(at - 1));
}

function substringScore(haystack: string, needle: string): number {
  let at = haystack.indexOf(needle);
  if (at < 0) return 0;
  // Prefer an occurrence at a word start over the first occurrence.
  let best = at;
  while (at >= 0 && !isWordStart(haystack, at)) at = haystack.indexOf(needle, at + 1);
  if (at >= 0) best = at;
  let score = 100;
  if (isWordStart(haystack, best)) {
    score += 40;
    const end = best + needle.length;
    if (end === haystack.length || SEPARATORS.has(haystack.charCodeAt(end))) score += 20;
  }
  if (best === 0) score += 30;
  return score - Math.min(best, 30) * 0.5;
}

/** Greedy in-order match of every needle character; 0 when some character is missing. */
function subsequenceScore(haystack: string, needle: string): number {
  let score = 1;
  let from = 0;
  let previous = -2;
  for (let i = 0; i < needle.length; i++) {
    const at = haystack.indexOf(needle[i]!, from);
    if (at < 0) return 0;
    if (at === previous + 1) score += 5;
    else score -= Math.min(at - from, 10) * 0.3;
    if (isWordStart(haystack, at)) score += 8;
    previous = at;
    from = at + 1;
  }
  return Math.max(score, 0.5);
}

function tokenScore<T>(entry: Entry<T>, token: string): number {
  const title = substringScore(entry.title, token);
  if (title > 0) return title * 2;
  if (entry.keywords) {
    const keyword = substringScore(entry.keywords, token);
    if (keyword > 0) return keyword;
  }
  const fuzzyTitle = subsequenceScore(entry.title, token);
  if (fuzzyTitle > 0) return fuzzyTitle;
  return entry.keywords ? subsequenceScore(entry.keywords, token) * 0.5 : 0;
}

export function fuzzyScore(query: string, text: FuzzyText): number {
  const tokens = tokenize(query);
  if (tokens.length === 0) return 1;
  return scoreEntry(
    { item: null, title: text.title.toLowerCase(), keywords: (text.keywords ?? []).join(' ').toLowerCase(), index: 0 },
    tokens,
  );
}

function tokenize(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

function scoreEntry<T>(entry: Entry<T>, tokens: readonly string[]): number {
  let total = 0;
  for (const token of tokens) {
    const score = tokenScore(entry, token);
    if (score <= 0) return 0;
    total += score;
  }
  // Shorter titles win ties: "Claims" before "Claims Activity Settings" for "claims".
  return total - entry.title.length * 0.01;
}

export function createFuzzyIndex<T>(items: readonly T[], text: (item: T) => FuzzyText): FuzzyIndex<T> {
  const entries: Entry<T>[] = items.map((item, index) => {
    const { title, keywords } = text(item);
    return { item, title: title.toLowerCase(), keywords: (keywords ?? []).join(' ').toLowerCase(), index };
  });
  // Typing only ever extends the query, and every entry matching "polic" also matched "poli"
  // (a prefix of a substring or subsequence match is one too), so the next keystroke scans only the
  // previous keystroke's matches.
  let previous: { query: string; matches: Entry<T>[] } | null = null;
  return {
    size: entries.length,
    search(query, options = {}) {
      const limit = options.limit ?? Infinity;
      const normalized = query.toLowerCase();
      const tokens = tokenize(normalized);
      if (tokens.length === 0) {
        previous = null;
        return entries.slice(0, limit).map((e) => ({ item: e.item, score: 1, index: e.index }));
      }
      const pool = previous && normalized.startsWith(previous.query) ? previous.matches : entries;
      const matches: Entry<T>[] = [];
      const results: FuzzyResult<T>[] = [];
      for (const entry of pool) {
        const score = scoreEntry(entry, tokens);
        if (score > 0) {
          matches.push(entry);
          results.push({ item: entry.item, score, index: entry.index });
        }
      }
      previous = { query: normalized, matches };
      results.sort((a, b) => b.score - a.score || a.index - b.index);
      return results.length > limit ? results.slice(0, limit) : results;
    },
  };
}

/**
 * A cmdk-compatible `filter(value, search, keywords)` → 0..1, for hosts that let cmdk filter.
 * Scores are squashed into (0, 1] keeping their order; 0 still means "hide".
 */
export function cmdkFilter(value: string, search: string, keywords?: string[]): number {
  const score = fuzzyScore(search, { title: value, keywords });
  return score <= 0 ? 0 : score / (score + 100);
}
