const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'ws' | 'srv' | 'prv' | 'bk' | 'wh' | 'msg' | 'key' | 'cf' | 'att' | 'pay' | 'pc' | 'hc' | 'req';

/**
 * An opaque id: a type prefix and a ULID body (48-bit millisecond time, 80 random bits), so ids sort by
 * creation time. `now` is injectable for tests.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const random = crypto.getRandomValues(new Uint8Array(16));
  let body = '';
  for (const byte of random) body += CROCKFORD[byte % 32];
  return `${prefix}_${time}${body}`.toLowerCase();
}
