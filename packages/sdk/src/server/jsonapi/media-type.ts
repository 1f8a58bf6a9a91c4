/**
 * JSON:API 1.1 content negotiation ("Content Negotiation" in the spec of jsonapi.org/format/1.1).
 * - A request whose Content-Type is the JSON:API media type with any parameter other than `ext` or
 *   `profile` gets 415.
 * - A request whose Accept names the JSON:API media type only with parameters other than `ext` or
 *   `profile` gets 406 (if at least one instance is unmodified or only carries ext/profile, fine).
 */
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

const ALLOWED_PARAMS = new Set(['ext', 'profile']);

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

/** Parse one media range `type/subtype; a=b; c="d"` without a regex engine per parameter. */
export function parseMediaRange(value: string): MediaRange {
  const [typePart, ...paramParts] = value.split(';');
  const params = new Map<string, string>();
  for (const part of paramParts) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let val = part.slice(eq + 1).trim();
    if (val.startsWith('"') && val.endsWith('"')) val = val.slice(1, -1);
    if (key) params.set(key, val);
  }
  return { type: (typePart ?? '').trim().toLowerCase(), params };
}

/** Split an Accept header on commas that are not inside quoted parameter values. */
function splitAccept(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

function onlyAllowedParams(range: MediaRange): boolean {
  for (const key of range.params.keys()) {
    // `q` belongs to the Accept syntax, not to the media type.
    if (key !== 'q' && !ALLOWED_PARAMS.has(key)) return false;
  }
  return true;
}

/** 415 when the request body is JSON:API with forbidden parameters, or not JSON:API at all. */
export function isUnsupportedContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const range = parseMediaRange(contentType);
  if (range.type !== JSONAPI_MEDIA_TYPE) return true;
  for (const key of range.params.keys()) if (!ALLOWED_PARAMS.has(key)) return true;
  return false;
}

/** 406 when every JSON:API instance in Accept carries forbidden parameters. */
export function isNotAcceptable(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = splitAccept(accept).map(parseMediaRange);
  const jsonApi = ranges.filter((r) => r.type === JSONAPI_MEDIA_TYPE);
  if (jsonApi.length === 0) {
    // Accept without the JSON:API type: fine if the client takes anything or any application/*.
    return !ranges.some((r) => r.type === '*/*' || r.type === 'application/*' || r.type === 'application/json');
  }
  return !jsonApi.some(onlyAllowedParams);
}
