const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_CHARS = 16;

export type IdPrefix =
  | 'ws'
  | 'srv'
  | 'prv'
  | 'bk'
  | 'wh'
  | 'msg'
  | 'key'
  | 'cf'
  | 'att'
  | 'pay'
  | 'pc'
  | 'hc'
  | 'ps'
  | 'req'
  | 'mail'
  | 'cal'
  | 'cwr'
  | 'wl'
  | 'ser'
  | 'rf';

/** The last random part made for each recent millisecond (several: tests and imports stamp ids with other times). */
const lastRandomAt = new Map<number, number[]>();
const REMEMBERED_MILLISECONDS = 1024;

/** The random part after `digits`, plus one (base 32, carrying), so ids made in one millisecond still ascend. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/**
 * An opaque id: a type prefix and a ULID body (48-bit millisecond time, 80 random bits). Ids sort by the time
 * they carry (`now`, injectable), and ids of one millisecond by the order they were made in this process (the
 * monotonic ULID rule), so events written together are ordered by their ids.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const previous = lastRandomAt.get(now);
  const random = previous ? increment(previous) : [...crypto.getRandomValues(new Uint8Array(RANDOM_CHARS))].map((byte) => byte % 32);
  lastRandomAt.delete(now);
  lastRandomAt.set(now, random);
  if (lastRandomAt.size > REMEMBERED_MILLISECONDS) lastRandomAt.delete(lastRandomAt.keys().next().value!);
  let encodedTime = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) encodedTime = CROCKFORD[t % 32] + encodedTime;
  return `${prefix}_${encodedTime}${random.map((digit) => CROCKFORD[digit]).join('')}`.toLowerCase();
}
