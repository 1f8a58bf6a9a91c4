/**
 * Where the app may send a user after sign-in or from a login-only page. The target usually comes
 * from the `redirect` query of the URL, which anyone can craft, so only a path on this site is
 * honoured; everything else (other origins, protocol-relative `//host`, `/\host`, `javascript:`,
 * `data:` …) becomes `/`. The spec says "not http or https → /"; we are stricter on purpose: an
 * http(s) URL on another origin would be an open redirect.
 */
export const DEFAULT_REDIRECT_TARGET = '/';

export function safeRedirectTarget(value: unknown, origin: string = currentOrigin()): string {
  if (typeof value !== 'string' || value.length === 0) return DEFAULT_REDIRECT_TARGET;
  // The URL parser strips tabs and newlines and treats `\` as `/`; browsers do the same when they
  // follow the link. Rejecting these characters up front keeps the check independent of that.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_REDIRECT_TARGET;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return DEFAULT_REDIRECT_TARGET;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return DEFAULT_REDIRECT_TARGET;
  if (url.origin !== new URL(origin).origin) return DEFAULT_REDIRECT_TARGET;
  // Normalisation can make a protocol-relative path out of a harmless-looking one: `/.//evil/x`
  // parses to the pathname `//evil/x`, which a browser (or a router handed it) reads as the host
  // `evil`. Refuse any path that starts with two slashes, also when the slashes (or backslashes)
  // are percent-encoded and a later decoding step would bring them back.
  if (!isPlainPath(url.pathname)) return DEFAULT_REDIRECT_TARGET;
  // Rebuild from the parsed parts so what we navigate to is exactly what we checked, and check
  // the rebuilt target once more as the browser will resolve it.
  const target = `${url.pathname}${url.search}${url.hash}`;
  const resolved = new URL(target, origin);
  if (resolved.origin !== new URL(origin).origin || resolved.pathname !== url.pathname) return DEFAULT_REDIRECT_TARGET;
  return target;
}

function isPlainPath(pathname: string): boolean {
  let decoded = pathname;
  // Undo repeated percent-encoding (`%252F` → `%2F` → `/`) a few times; give up on a path that keeps
  // changing or does not decode.
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    if (next === decoded) break;
    decoded = next;
    if (round === 3) return false;
  }
  if (!decoded.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(decoded)) return false;
  // The decoded path normalised once more (`/%2e//evil` → `/.//evil` → `//evil`) must still be a path.
  return !decoded.startsWith('//') && !new URL(decoded, 'http://localhost').pathname.startsWith('//');
}

function currentOrigin(): string {
  return typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null'
    ? window.location.origin
    : 'http://localhost';
}
