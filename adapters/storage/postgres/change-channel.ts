import { createHash } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import type { Storage, StorageChange, StorageChangeListener } from '../../../src/ports/storage/index.ts';

/*
 * Several instances on one database hear of each other's writes (docs/decisions/0029-changes-across-instances.md):
 * each committed write's changes go out as a NOTIFY on the schema's channel, and each instance LISTENs on a
 * connection of its own and announces what the others wrote to its listeners, as if written here. The caches
 * then drop what a write made stale at once, wherever it was made, and availability may keep the bookings it read
 * until a write drops them (StorageChanges.hearsEveryBookingWrite).
 */

/** Postgres refuses payloads of 8,000 bytes and more; a longer batch goes out as several notifications. */
const MAX_PAYLOAD_BYTES = 7000;
/** The pause before listening again after the channel's connection closed or could not open, ms. */
const RELISTEN_MS = 1000;
/** An instance hears its own notifications too: one not heard back within this long means the channel is deaf, ms. */
const ECHO_MS = 5000;
/**
 * How often a channel with nothing to say says so anyway (an empty notification), so that one on a connection
 * dropped without a word is found deaf within HEARTBEAT_MS + ECHO_MS, not at the next write, ms.
 */
const HEARTBEAT_MS = 30_000;
/**
 * How long the changes of a write wait for those of other writes to share its NOTIFY, ms: under a thousand
 * bookings a second, one statement for ten instead of one each, for a few milliseconds more before the others hear.
 */
const GATHER_MS = 5;

interface Notification {
  /** the instance that wrote: it has announced its changes itself */
  from: string;
  /** the sender's count of its notifications, so that it can tell it heard its own back */
  seq: number;
  changes: StorageChange[];
}

/**
 * The channel of svc's tables in `schema` (several installs may share one database in schemas of their own): a
 * channel's name is an identifier, at most 63 bytes, so a long schema name is hashed.
 */
export function changeChannel(schema: string): string {
  const name = `svc_changes:${schema}`;
  return Buffer.byteLength(name) <= 63 ? name : `svc_changes:${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
}

/**
 * `storage` whose listeners also hear the changes other instances on the same channel wrote, and whose own
 * changes those instances hear. Listening starts with the first listener, on a connection of its own.
 *
 * The channel vouches for the others' writes (hearsEveryBookingWrite) only once this instance has heard its own
 * first notification back, and while it hears each one back within ECHO_MS (an instance with nothing to say sends
 * an empty one every HEARTBEAT_MS): a LISTEN behind a pooler in transaction mode, or on a connection a firewall
 * dropped without a word, hears nothing and says so. When the connection closes or goes deaf, the listeners are
 * told `missed` (drop everything) and it listens afresh. A NOTIFY that cannot be sent (the database is down) is
 * dropped: the others' channels close or go deaf too.
 */
export function relayingChanges(storage: Storage, client: Sql, channel: string): Storage {
  const instance = crypto.randomUUID();
  const fromOthers = new Set<StorageChangeListener>();
  let started = false;
  let closed = false;
  /** the channel hears every notification: its own first one came back, and none is overdue */
  let listening = false;
  let listener: Sql | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let sent = 0;
  let heardBack = 0;
  /** the own notification that must come back first for the channel to vouch (0: none awaited) */
  let confirming = 0;
  let echoCheck: ReturnType<typeof setTimeout> | undefined;
  let lastSentAt = 0;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const announce = (change: StorageChange) => {
    for (const heard of [...fromOthers]) {
      try {
        heard(change);
      } catch {
        // a listener's failure is its own (StorageChangeListener)
      }
    }
  };

  /** The channel stopped hearing (closed, deaf, or never opened): say so and listen afresh. */
  const lost = (connection: Sql) => {
    if (connection !== listener) return; // an older connection, already given up
    listener = undefined;
    confirming = 0;
    void connection.end({ timeout: 0 }).catch(() => {});
    if (listening) {
      listening = false;
      announce({ kind: 'missed' });
    }
    if (!closed && retry === undefined) retry = setTimeout(listen, RELISTEN_MS);
  };

  async function listen() {
    retry = undefined;
    if (closed) return;
    const connection: Sql = postgres({
      ...client.options,
      max: 1,
      idle_timeout: null,
      max_lifetime: null,
      fetch_types: false,
      onclose: () => lost(connection),
      onnotify: (_channel: string, payload: string) => {
        if (connection === listener) heard(payload);
      },
    } as never);
    listener = connection;
    try {
      await connection`listen ${connection(channel)}`;
    } catch {
      lost(connection);
      return;
    }
    if (closed || connection !== listener) return;
    // Vouch once the first own notification comes back. What the others wrote while nothing listened went
    // unheard: the caches were told `missed` when the channel closed, and what they loaded since is kept only
    // briefly (a cache asks hearsEveryBookingWrite when a load starts, core/loading-cache.ts).
    const probe = await notify([]);
    if (connection !== listener) return;
    if (probe === 0) lost(connection);
    else if (heardBack >= probe) listening = true;
    else confirming = probe;
  }

  function heard(payload: string) {
    let notification: Notification;
    try {
      notification = JSON.parse(payload) as Notification;
    } catch {
      return;
    }
    if (!Array.isArray(notification.changes)) return;
    if (notification.from === instance) {
      heardBack = Math.max(heardBack, notification.seq);
      if (confirming > 0 && heardBack >= confirming) {
        confirming = 0;
        listening = true;
      }
      return;
    }
    for (const change of notification.changes) announce(change);
  }

  /** Sends `changes` (JSON texts) as one notification; its number, or 0 when it could not be sent. */
  async function notify(changes: string[]): Promise<number> {
    const seq = ++sent;
    lastSentAt = performance.now();
    try {
      await client`select pg_notify(${channel}, ${`{"from":${JSON.stringify(instance)},"seq":${seq},"changes":[${changes.join(',')}]}`})`;
    } catch {
      return 0; // dropped: see relayingChanges
    }
    expectBack(seq);
    return seq;
  }

  /** Unless already waiting for an earlier one, checks in ECHO_MS that `seq` came back. */
  function expectBack(seq: number) {
    if (echoCheck !== undefined || listener === undefined || closed) return;
    const connection = listener;
    echoCheck = setTimeout(() => {
      echoCheck = undefined;
      if (heardBack < seq && connection === listener) lost(connection);
      else if (sent > heardBack && !closed) expectBack(sent);
    }, ECHO_MS);
    echoCheck.unref?.();
  }

  // Outgoing: the changes of the writes committed within GATHER_MS in one NOTIFY (each change once), one at a time.
  const pending = new Map<string, StorageChange>();
  let sending: Promise<void> | undefined;
  let gathering: { timer: ReturnType<typeof setTimeout>; done: () => void } | undefined;
  const send = async () => {
    await new Promise<void>((done) => (gathering = { timer: setTimeout(done, GATHER_MS), done }));
    gathering = undefined;
    while (pending.size > 0) await notify(takeBatch(pending));
    sending = undefined;
  };
  storage.onChange((change) => {
    if (change.kind === 'missed') return;
    pending.set(JSON.stringify(change), change);
    sending ??= send();
  });

  return {
    ...storage,
    onChange(listener) {
      const stopHere = storage.onChange(listener);
      fromOthers.add(listener);
      if (!started && !closed) {
        started = true;
        heartbeat = setInterval(() => {
          if (listening && performance.now() - lastSentAt >= HEARTBEAT_MS) void notify([]);
        }, HEARTBEAT_MS);
        (heartbeat as { unref?: () => void }).unref?.();
        void listen();
      }
      return () => {
        stopHere();
        fromOthers.delete(listener);
      };
    },
    hearsEveryBookingWrite: () => listening,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(retry);
      clearTimeout(echoCheck);
      if (gathering) {
        clearTimeout(gathering.timer);
        gathering.done();
      }
      await sending;
      const connection = listener;
      listener = undefined;
      await connection?.end({ timeout: 1 });
      await storage.close();
    },
  };
}

/** The first changes of `pending` (as JSON texts) that fit one payload, taken out of it. */
function takeBatch(pending: Map<string, StorageChange>): string[] {
  const changes: string[] = [];
  let bytes = 100;
  for (const [key] of pending) {
    if (changes.length > 0 && bytes + key.length + 1 > MAX_PAYLOAD_BYTES) break;
    changes.push(key);
    bytes += key.length + 1;
    pending.delete(key);
  }
  return changes;
}
