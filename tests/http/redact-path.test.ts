import { describe, expect, test } from 'bun:test';
import { redactPath } from '../../src/platform/http/request-log.ts';

/*
 * The path a request log line carries (docs/contract/operations.md §10): capability tokens and addresses never
 * reach a log. redactPath answers most paths from one quick check; this holds it to the segment-by-segment rule.
 */

/** The rule itself, one segment at a time: the segment after a token word, and any segment holding an address. */
function bySegments(path: string): string {
  const tokens = new Set(['checkout', 'manage', 'ics', 'waitlist']);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    if (segments[i] !== '' && (tokens.has(segments[i - 1]!.toLowerCase()) || /@|%40/i.test(segments[i]!))) segments[i] = '[redacted]';
  }
  return segments.join('/');
}

describe('redactPath', () => {
  test('a capability token or an address in a path is written [redacted]; other paths are kept as they are', () => {
    expect(redactPath('/api/v1/workspaces/acme/availability')).toBe('/api/v1/workspaces/acme/availability');
    expect(redactPath('/checkout/cs_123/pay')).toBe('/checkout/[redacted]/pay');
    expect(redactPath('/Manage/tok_1')).toBe('/Manage/[redacted]');
    expect(redactPath('/api/v1/feeds/ics/secret.ics')).toBe('/api/v1/feeds/ics/[redacted]');
    expect(redactPath('/customers/ada@example.org')).toBe('/customers/[redacted]');
    expect(redactPath('/customers/ada%40example.org/x')).toBe('/customers/[redacted]/x');
    expect(redactPath('/manage/')).toBe('/manage/');
    expect(redactPath('/manage//x')).toBe('/manage//x');
    expect(redactPath('/managers/x')).toBe('/managers/x');
  });

  test('agrees with the segment-by-segment rule on every path of words, tokens, addresses and odd cases', () => {
    const parts = [
      '',
      'api',
      'v1',
      'manage',
      'MANAGE',
      'checkout',
      'ics',
      'waitlist',
      'Waitlist',
      'tok_1',
      'a@b.c',
      'a%40b',
      'a%4',
      'x.ics',
      'managed',
      'chec\u212Aout',
    ];
    let checked = 0;
    for (const a of parts)
      for (const b of parts)
        for (const c of parts) {
          for (const path of [`/${a}/${b}/${c}`, `${a}/${b}`, `/${a}/${b}/`]) {
            expect(redactPath(path)).toBe(bySegments(path));
            checked++;
          }
        }
    expect(checked).toBe(parts.length ** 3 * 3);
  });
});
