import { lookup as dnsLookup } from 'node:dns';
import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The webhook URL check: http(s) only, no credentials, and — unless the carrier allows it
 * (`ATRIUM_WEBHOOKS_ALLOW_PRIVATE`) — no loopback, link-local, private, shared or unspecified
 * target. It runs when a subscription is saved (every address the host resolves to) and again at
 * send time inside the connection's own DNS lookup, so the address connected to is the one checked
 * (a name that re-resolves to 127.0.0.1 after the check is refused).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

export class UrlRefused extends Error {}

/** Checks a URL's form; returns the parsed URL or throws UrlRefused with a message for the user. */
export function parseWebhookUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UrlRefused('Enter a valid URL, e.g. https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UrlRefused('The URL must start with https:// or http://.');
  if (url.username || url.password) throw new UrlRefused('The URL must not contain a user name or password.');
  return url;
}

/** The whole check at save time: form, then every resolved address. */
export async function checkWebhookUrl(value: string, allowPrivate: boolean): Promise<void> {
  const url = parseWebhookUrl(value);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new UrlRefused(`The host ${host} could not be resolved.`);
    }
  }
  if (addresses.some(isPrivateAddress)) {
    throw new UrlRefused('The URL points to a loopback, link-local or private address, which is not allowed.');
  }
}

/** A `lookup` for http.request that refuses private addresses unless allowed (the send-time check). */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const refused = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (refused) {
        return callback(new UrlRefused(`${hostname} resolves to a private address, which is not allowed.`), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as any)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
