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

/** Random bytes drawn from the system's generator in bulk: one call per 256 ids instead of one per id. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = new Uint8Array(0);
let randomUsed = 0;

/** A new random part: RANDOM_CHARS base-32 digits. */
function freshRandom(): number[] {
  if (randomUsed + RANDOM_CHARS > randomPool.length) {
    randomPool = crypto.getRandomValues(new Uint8Array(RANDOM_POOL_BYTES));
    randomUsed = 0;
  }
  const digits = new Array<number>(RANDOM_CHARS);
  for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = randomPool[randomUsed++]! % 32;
  return digits;
}

/** Crockford's base-32 alphabet, in lower case, that ids are written in. */
const DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';

/** The time part of the last millisecond encoded: ids come in bursts within one. */
let encodedAt = Number.NaN;
let encodedTime = '';

function timePart(now: number): string {
  if (now !== encodedAt) {
    let text = '';
    for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) text = DIGITS[t % 32] + text;
    encodedAt = now;
    encodedTime = text;
  }
  return encodedTime;
}

/**
 * An opaque id: a type prefix and a ULID body (48-bit millisecond time, 80 random bits). Ids sort by the time
 * they carry (`now`, injectable), and ids of one millisecond by the order they were made in this process (the
 * monotonic ULID rule), so events written together are ordered by their ids.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const previous = lastRandomAt.get(now);
  const random = previous ? increment(previous) : freshRandom();
  lastRandomAt.delete(now);
  lastRandomAt.set(now, random);
  if (lastRandomAt.size > REMEMBERED_MILLISECONDS) lastRandomAt.delete(lastRandomAt.keys().next().value!);
  let text = `${prefix}_${timePart(now)}`;
  for (const digit of random) text += DIGITS[digit];
  return text;
}
