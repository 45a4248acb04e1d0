import { describe, expect, test } from 'bun:test';
import { checkDestination, nonPublicRange, systemResolver } from '../../src/platform/destination.ts';

describe('nonPublicRange', () => {
  const cases: [string, string | null][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.50.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.1.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    // public
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['100.128.0.1', null],
    ['11.0.0.1', null],
    ['93.184.215.14', null],
    ['2001:4860:4860::8888', null],
    ['::ffff:8.8.8.8', null],
    ['2606:4700::1111', null],
  ];
  for (const [address, range] of cases) {
    test(`${address} -> ${range ?? 'public'}`, () => {
      expect(nonPublicRange(address)).toBe(range);
    });
  }
});

describe('checkDestination', () => {
  test('every address a name resolves to must be public', async () => {
    const url = new URL('https://hooks.example.com/x');
    expect(await checkDestination(url, async () => ['93.184.215.14', '2606:2800::1'])).toEqual({ ok: true, addresses: ['93.184.215.14', '2606:2800::1'] });
    expect(await checkDestination(url, async () => ['93.184.215.14', '192.168.1.1'])).toEqual({
      ok: false,
      reason: 'hooks.example.com resolves to 192.168.1.1, not a public address (private)',
    });
  });

  test('a name that does not resolve is reported as unresolved, not as private', async () => {
    const missing = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    expect(
      await checkDestination(new URL('https://nowhere.invalid/'), async () => {
        throw missing;
      }),
    ).toEqual({
      ok: false,
      unresolved: true,
      reason: 'nowhere.invalid could not be resolved (ENOTFOUND)',
    });
  });

  test('localhost is loopback without asking DNS; IP literals are not resolved', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return ['93.184.215.14'];
    };
    expect(await checkDestination(new URL('http://LOCALHOST.:8080/'), resolve)).toEqual({ ok: false, reason: 'localhost is not a public address (loopback)' });
    expect(await checkDestination(new URL('http://[::1]/'), resolve)).toEqual({ ok: false, reason: '::1 is not a public address (loopback)' });
    expect(await checkDestination(new URL('http://8.8.8.8/'), resolve)).toEqual({ ok: true, addresses: ['8.8.8.8'] });
    expect(asked).toEqual([]);
  });

  test('the system resolver (node:dns lookup, all addresses) resolves localhost to loopback', async () => {
    const addresses = await systemResolver('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(nonPublicRange(address)).toBe('loopback');
  });
});
