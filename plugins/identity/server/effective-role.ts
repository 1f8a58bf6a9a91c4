/**
 * The role a request acts in: the X-Effective-Role header, else the chosen_role cookie, else the
 * user's only role. A named role the user does not hold gives no effective role at all (null), never
 * a fallback, so that a stale or forged choice cannot widen access.
 */
export const EFFECTIVE_ROLE_HEADER = 'x-effective-role';
export const CHOSEN_ROLE_COOKIE = 'chosen_role';

export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const joined = Array.isArray(header) ? header.join('; ') : header;
  if (!joined) return undefined;
  for (const part of joined.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function resolveEffectiveRole(
  headers: Record<string, string | string[] | undefined>,
  roles: string[],
): string | null {
  const header = headers[EFFECTIVE_ROLE_HEADER];
  const named =
    (Array.isArray(header) ? header[0] : header)?.trim() || readCookie(headers.cookie, CHOSEN_ROLE_COOKIE)?.trim();
  if (named) return roles.includes(named) ? named : null;
  return roles.length === 1 ? roles[0]! : null;
}
