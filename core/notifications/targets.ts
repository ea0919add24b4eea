import { BlockList, isIP } from 'node:net';
import { InputError } from '../errors.js';

/**
 * Address ranges a webhook may not reach unless `notifications.allow_private_targets` is true: a hook that posts
 * to them would let anyone who may create one probe the server's own network (loopback services, the cloud
 * metadata endpoint, hosts behind the firewall). Each range is named for the message of a refusal.
 */
const RANGES: readonly (readonly [string, number, 'ipv4' | 'ipv6', string])[] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['fc00::', 7, 'ipv6', 'unique-local'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const lists = RANGES.map(([address, prefix, family, name]) => {
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return { list, family, name };
});

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible or NAT64 well-known prefix), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Why a webhook may not connect to `address` (an IP address, either family), or undefined when it may: the name
 * of the range it falls in.
 */
export function blockedRange(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 !== undefined) {
    for (const { list, family: f, name } of lists) if (f === 'ipv4' && list.check(v4, 'ipv4')) return name;
    return undefined;
  }
  for (const { list, family: f, name } of lists) if (f === 'ipv6' && list.check(address, 'ipv6')) return name;
  return undefined;
}

/** The host part of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a webhook URL as stored: http or https, a host, no user name or password (the body is signed with the
 * webhook's secret instead), at most 2,048 characters, and, unless private targets are allowed, no IP address in a
 * refused range. Host names are checked again on every delivery, on the address actually connected to.
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): URL {
  const refuse = (rule: string) => new InputError(`webhook url ${rule}`, { field: 'url' });
  if (text.length > 2048) throw refuse('must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must use http or https');
  if (url.username !== '' || url.password !== '')
    throw refuse('must not contain a user name or password; give the webhook a secret instead');
  const host = urlHost(url);
  if (!allowPrivate && isIP(host) !== 0) {
    const range = blockedRange(host);
    if (range !== undefined)
      throw refuse(
        `must not point to a ${range} address (${host}) unless the server configuration sets notifications.allow_private_targets`,
      );
  }
  return url;
}
