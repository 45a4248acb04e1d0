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
});
