import { isIP } from 'node:net';

/**
 * ATRIUM_TRUST_PROXY: which hops in front of Atrium may say who the client is. Behind a load balancer
 * every request comes from the balancer's address, so without this the sign-in throttle counts the
 * whole world as one source (one sprayer locks everyone out) and HSTS never sees HTTPS. Trusting a
 * hop that is not yours lets any client forge X-Forwarded-For and walk around the throttle, so the
 * default trusts nobody and `true` (trust everything) is refused.
 *
 * - unset or `false`: the socket's address is the client (Atrium faces the users directly).
 * - a number N: trust the N hops nearest Atrium (e.g. `1` behind one load balancer).
 * - addresses or CIDR ranges, comma-separated (e.g. `10.0.0.0/8,127.0.0.1`): trust those hops.
 *
 * Answers Fastify's `trustProxy` option, or an error message naming what is wrong.
 */
export type TrustProxy = false | number | string[];

const CIDR = /^(.+)\/(\d{1,3})$/;

export function parseTrustProxy(raw: string | undefined): TrustProxy | { error: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') {
    return {
      error: 'true would trust any client to name its own address; give the hop count or the proxies’ addresses',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) return { error: 'must be a hop count from 1 to 10' };
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const cidr = CIDR.exec(entry);
    const address = cidr ? cidr[1]! : entry;
    const version = isIP(address);
    if (version === 0) return { error: `'${entry}' is not an IP address or CIDR range` };
    if (cidr && Number(cidr[2]) > (version === 4 ? 32 : 128)) return { error: `'${entry}' has a prefix too long` };
  }
  return entries;
}

/** Fastify's option: a hop count as a function of the hop (its types take no number). */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
