import { isIPv4, isIPv6 } from 'node:net';

/**
 * Address ranges a webhook may not reach unless `notifications.allow_private_targets` is true: a hook that posts
 * to them would let anyone who may create one probe the server's own network (loopback services, the cloud
 * metadata endpoint, hosts behind the firewall). Each range is named for the message of a refusal.
 */
const IPV4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6: readonly (readonly [string, number, string])[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/**
 * Prefixes of IPv6 addresses that carry an IPv4 address (which the host or a translator may reach), with where
 * its four bytes begin: IPv4-mapped, IPv4-compatible, NAT64 (the well-known and the local-use prefix) and 6to4.
 */
const EMBEDDING: readonly (readonly [string, number, number])[] = [
  ['::ffff:0:0', 96, 12],
  ['::', 96, 12],
  ['64:ff9b::', 96, 12],
  ['64:ff9b:1::', 48, 12],
  ['2002::', 16, 2],
];

/** The 4 bytes of a dotted IPv4 address. */
function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address in any textual form (`::` compression, a trailing dotted IPv4 address). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => Number.parseInt(w, 16)));
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((word) => [word >> 8, word & 255]);
}

/** Whether the first `prefix` bits of two byte strings agree. */
function samePrefix(bytes: readonly number[], network: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 128 >> (bit % 8);
    if (((bytes[bit >> 3] ?? 0) & mask) !== ((network[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Range(bytes: readonly number[]): string | undefined {
  return IPV4.find(([network, prefix]) => samePrefix(bytes, ipv4Bytes(network), prefix))?.[2];
}

/**
 * Why a webhook may not connect to `address` (an IP address of either family), or undefined when it may: the name
 * of the range it falls in. An IPv6 address that carries an IPv4 address is judged by that address too.
 */
export function blockedRange(address: string): string | undefined {
  if (isIPv4(address)) return ipv4Range(ipv4Bytes(address));
  if (!isIPv6(address)) return 'not an IP address';
  const bytes = ipv6Bytes(address);
  const own = IPV6.find(([network, prefix]) => samePrefix(bytes, ipv6Bytes(network), prefix))?.[2];
  if (own) return own;
  for (const [network, prefix, at] of EMBEDDING)
    if (samePrefix(bytes, ipv6Bytes(network), prefix)) {
      const carried = ipv4Range(bytes.slice(at, at + 4));
      if (carried) return carried;
    }
  return undefined;
}

/** The host part of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * What is wrong with a webhook URL's host before anything is resolved, or undefined: an IP address in a refused
 * range, or `localhost` (and its subdomains, which resolve to loopback by definition, with or without a final dot). Other host names are
 * judged on every delivery by the address actually connected to.
 */
export function refusedHost(url: URL): string | undefined {
  // a fully qualified name's final dot names the same host
  const host = urlHost(url).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a loopback name`;
  if (!isIPv4(host) && !isIPv6(host)) return undefined;
  const range = blockedRange(host);
  return range === undefined ? undefined : `${host} is a ${range} address`;
}
