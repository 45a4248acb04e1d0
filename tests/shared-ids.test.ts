import { describe, expect, test } from 'bun:test';
import { newId } from '../src/core/ids.ts';

describe('ids', () => {
  test('an id is its prefix and a 26-character ULID body in lower case', () => {
    expect(newId('bk')).toMatch(/^bk_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  test('ids sort by the time they carry', () => {
    const earlier = newId('msg', Date.parse('2026-11-23T08:00:00.000Z'));
    const later = newId('msg', Date.parse('2026-11-23T08:00:00.001Z'));
    expect(earlier < later).toBe(true);
  });

  test('ids made in the same millisecond ascend in the order they were made', () => {
    const at = Date.parse('2027-01-01T00:00:00.000Z');
    const ids = Array.from({ length: 1000 }, () => newId('msg', at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  test('ids of one millisecond ascend even when ids of other times are made in between', () => {
    const at = Date.parse('2027-02-01T00:00:00.000Z');
    const first = newId('msg', at);
    newId('msg', Date.parse('2028-01-01T00:00:00.000Z'));
    newId('bk');
    const second = newId('msg', at);
    expect(first < second).toBe(true);
  });

  test('an id asked for with an earlier time carries that time, and sorts before later ones', () => {
    const later = newId('msg', Date.parse('2027-06-01T00:00:00.000Z'));
    const earlier = newId('msg', Date.parse('2027-05-01T00:00:00.000Z'));
    expect(earlier < later).toBe(true);
  });

  test('the time part is the ULID encoding of the time, whatever time the id before carried', () => {
    // the ULID specification's example: 1469918176385 ms is 01ARYZ6S41
    for (const at of [1469918176385, Date.parse('2027-06-01T00:00:00.000Z'), 1469918176385]) {
      const expected = Array.from({ length: 10 }, (_, i) => '0123456789abcdefghjkmnpqrstvwxyz'[Math.floor(at / 32 ** (9 - i)) % 32]).join('');
      expect(newId('req', at).slice(4, 14)).toBe(expected);
    }
    expect(newId('req', 1469918176385).slice(4, 14)).toBe('01aryz6s41');
  });

  test('ids of different times have random parts of their own (thousands drawn, none repeated)', () => {
    const randomParts = Array.from({ length: 5000 }, (_, i) => newId('bk', Date.parse('2029-01-01T00:00:00.000Z') + i).slice(13));
    expect(new Set(randomParts).size).toBe(5000);
    // every one of the 32 digits turns up in every position: the parts are not stuck on a pattern
    for (let position = 0; position < 16; position++) expect(new Set(randomParts.map((part) => part[position])).size).toBe(32);
  });
});
