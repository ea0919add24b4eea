import { describe, expect, it } from 'vitest';
import { blockedRange, refusedHost } from './targets.js';

describe('blockedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.100.100.200', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a00:1', 'private'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata)'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata)'],
    ['64:ff9b:1::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ])('lets %s through', (address) => {
    expect(blockedRange(address)).toBeUndefined();
  });

  it('says when the text is no address', () => {
    expect(blockedRange('example.com')).toBe('not an IP address');
  });
});

describe('refusedHost', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1 is a private address'],
    ['https://LOCALHOST:8443/', 'localhost is a loopback name'],
    ['https://api.localhost/', 'api.localhost is a loopback name'],
    ['http://localhost./', 'localhost is a loopback name'],
    ['http://api.localhost./', 'api.localhost is a loopback name'],
  ])('refuses %s before anything is resolved', (url, why) => {
    expect(refusedHost(new URL(url))).toBe(why);
  });

  it('leaves host names and public addresses to the delivery', () => {
    expect(refusedHost(new URL('https://hooks.slack.com/services/T/B/X'))).toBeUndefined();
    expect(refusedHost(new URL('http://93.184.216.34:8080/'))).toBeUndefined();
  });
});
