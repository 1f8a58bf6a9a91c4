import { DEFAULT_POST_LOGIN_PATH } from '../sign-in-messages.js';

/**
 * Where to go after signing in. The `redirect` (or `redirectPath`) query comes from the URL, which
 * anyone can craft: only a path on this site is honoured, anything else (other origins, `//host`,
 * `javascript:`) gives the default post-login path. Login pages are never a target.
 */
export function postLoginTarget(value: string | null | undefined, origin: string = window.location.origin): string {
  if (!value || /[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_POST_LOGIN_PATH;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return DEFAULT_POST_LOGIN_PATH;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== new URL(origin).origin) {
    return DEFAULT_POST_LOGIN_PATH;
  }
  // `/.//evil.example` normalises to the protocol-relative `//evil.example` (issue 14, hole 6).
  if (url.pathname.startsWith('//') || /^\/(%2f|%5c)/i.test(url.pathname)) return DEFAULT_POST_LOGIN_PATH;
  if (url.pathname === '/login' || (url.pathname.startsWith('/login/') && url.pathname !== '/login/ko_roleSelect')) {
    return DEFAULT_POST_LOGIN_PATH;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
