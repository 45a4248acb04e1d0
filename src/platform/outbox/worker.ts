import { hostname } from 'node:os';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../logger.ts';

/*
 * One leased outbox worker for every kind of delivery (webhook messages, mails): it claims due items from its
 * queue under a lease owned by this process, runs the kind's handler on each (a bounded number at once), and
 * records the outcome, which the queue ignores unless the lease is still ours. While it holds items it renews
 * their leases (the heartbeat), so the lease itself is short: the work of an instance that died (kill -9, a
 * lost machine) is claimed by another within OUTBOX_LEASE_MS, while a live instance keeps its slow attempts.
 * Delivery is at least once: an attempt whose outcome was not recorded (a crash, a lease lost to a stalled
 * heartbeat) is made again by the next claimer. The queue's claim guarantees that concurrent claimers never
 * hold the same item at once.
 */

/** The storage calls of one kind of item: the two outbox tables each have theirs (ports/storage). */
export interface OutboxQueue<Item, Outcome> {
  /** what an item is, for log lines: `webhook message`, `mail` */
  readonly kind: string;
  idOf(item: Item): string;
  /** The earliest next attempt of pending items (a read: most polls find nothing due). */
  nextDueAt(): Promise<number | null>;
  /** Claims up to `limit` items due at `now` whose lease is free or lapsed, leasing them to `owner` until `leaseUntil`. */
  claim(owner: string, now: number, leaseUntil: number, limit: number): Promise<Item[]>;
  /** Moves the leases `owner` still holds among `ids` to `leaseUntil`; resolves with those ids. */
  extendLeases(owner: string, ids: string[], leaseUntil: number): Promise<string[]>;
  /** Records the outcome and releases the lease; false (and nothing written) unless `owner` still holds it. */
  record(owner: string, item: Item, outcome: Outcome): Promise<boolean>;
}

/** What a kind does with one claimed item. */
export interface OutboxHandler<Item, Outcome> {
  /**
   * Makes the attempt and says the item's next state (a retry at `backoffMs` of the schedule, or a final one);
   * null when there is nothing to record (the item is gone). A throw is logged and the item left to its lease:
   * once it lapses, the item is claimed and attempted again.
   */
  attempt(item: Item): Promise<Outcome | null>;
  /** Called once the outcome is recorded (for the kind's log lines). */
  recorded?(item: Item, outcome: Outcome): void;
}

export interface OutboxWorkerOptions<Item, Outcome> {
  queue: OutboxQueue<Item, Outcome>;
  handler: OutboxHandler<Item, Outcome>;
  clock: Clock;
  logger: Logger;
  /** lease owner id; default: host, pid and a random suffix (defaultOwnerId) */
  owner?: string;
  /** attempts in flight at most, and the size of a claim; default 8 */
  concurrency?: number;
  /** how long a claim (or a renewal) holds an item, ms; default OUTBOX_LEASE_MS */
  leaseMs?: number;
  /** how often the leases of held items are renewed while started, ms; default OUTBOX_HEARTBEAT_MS */
  heartbeatMs?: number;
  /** how often due retries and items written by other instances are looked for, ms; default 1000 */
  pollIntervalMs?: number;
}

export interface OutboxWorker {
  readonly owner: string;
  /** Starts the loop: a claim now, then one per poll interval and one on every wake(); and the heartbeat. */
  start(): void;
  /** Looks for due items at once (called after every write that adds some). */
  wake(): void;
  /**
   * For tests and tools: claims and attempts every item due at clock.now(), a batch at a time, waiting for the
   * attempts, until none is left; resolves with the number of attempts made. Not to be mixed with start().
   * It renews no lease by itself (a batch is held for one round of attempts): call renewLeases() to.
   */
  runOnce(): Promise<number>;
  /** The heartbeat, once: renews the lease of every item held (claimed and not yet recorded); resolves with how many it kept. */
  renewLeases(): Promise<number>;
  /** Stops claiming, waits for the attempts in flight and the items claimed (renewing their leases meanwhile). */
  stop(): Promise<void>;
  /** Attempts in flight now. */
  inFlight(): number;
}

/** How long a claim holds an item without renewal, ms: the most the work of a dead instance waits for another. */
export const OUTBOX_LEASE_MS = 20_000;
/** How often a started worker renews the leases it holds, ms: several renewals fit in one lease. */
export const OUTBOX_HEARTBEAT_MS = 5_000;
const DEFAULT_CONCURRENCY = 8;
const DEFAULT_POLL_MS = 1_000;

export function defaultOwnerId(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createOutboxWorker<Item, Outcome>(options: OutboxWorkerOptions<Item, Outcome>): OutboxWorker {
  const { queue, handler, clock, logger } = options;
  const { kind } = queue;
  const owner = options.owner ?? defaultOwnerId();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? OUTBOX_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? OUTBOX_HEARTBEAT_MS;
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;

  const running = new Set<Promise<void>>();
  /** claimed items waiting for a free slot */
  const waiting: Item[] = [];
  /** ids of the items claimed and not done with: the leases the heartbeat renews; `recording` once the outcome is being written */
  const held = new Map<string, 'held' | 'recording'>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let renewing: Promise<number> | null = null;
  let wanted = false;
  /** the last claim came back full: more may be due as soon as the waiting items run out */
  let backlog = false;

  async function handle(item: Item, id: string): Promise<void> {
    const outcome = await handler.attempt(item);
    if (outcome === null) return;
    held.set(id, 'recording');
    if (!(await queue.record(owner, item, outcome))) {
      logger.warn(`${kind} outcome not recorded: the lease on it was lost`, { id, owner });
      return;
    }
    handler.recorded?.(item, outcome);
  }

  async function claim(limit: number): Promise<Item[]> {
    const now = clock.now();
    const items = await queue.claim(owner, now, now + leaseMs, limit);
    for (const item of items) held.set(queue.idOf(item), 'held');
    return items;
  }

  function launch(item: Item): Promise<void> {
    const id = queue.idOf(item);
    const task: Promise<void> = handle(item, id)
      .catch((error) => logger.error(`${kind} attempt failed unexpectedly`, { id, error: messageOf(error) }))
      .finally(() => {
        held.delete(id);
        running.delete(task);
        fill();
        if (waiting.length === 0 && backlog) wake();
      });
    running.add(task);
    return task;
  }

  /** Starts waiting items while there is room. */
  function fill() {
    while (running.size < concurrency && waiting.length > 0) launch(waiting.shift()!);
  }

  /*
   * Claims a batch of `concurrency` items whenever none is waiting, so that a claim (a write) serves a whole
   * batch rather than each freed slot. At most two batches are held at once (one running, one waiting): a
   * waiting item waits for at most one round of attempts, and the heartbeat renews its lease meanwhile.
   */
  async function pump(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      while (!stopped && waiting.length === 0) {
        let claimed: Item[];
        try {
          // Claiming is a write; most polls find nothing due, which a read can tell (no write lock, no lease churn).
          if (!backlog) {
            const due = await queue.nextDueAt();
            if (due === null) break;
            const wait = due - clock.now();
            if (wait > 0) {
              // Due before the next poll (a retry, or an item stamped a few ms ahead): wake for it then.
              if (wait < pollMs) wakeIn(wait);
              break;
            }
          }
          claimed = await claim(concurrency);
        } catch (error) {
          logger.error(`claiming ${kind}s failed`, { error: messageOf(error) });
          break;
        }
        // Claimed just as stop() was called: attempted all the same, and stop() waits for them.
        waiting.push(...claimed);
        fill();
        backlog = claimed.length === concurrency;
        if (!backlog) break;
      }
    }
  }

  let soon: ReturnType<typeof setTimeout> | undefined;
  let soonAt = Infinity;
  function wakeIn(ms: number) {
    const at = performance.now() + ms;
    if (soon && soonAt <= at) return;
    clearTimeout(soon);
    soonAt = at;
    soon = setTimeout(() => {
      soon = undefined;
      soonAt = Infinity;
      wake();
    }, Math.ceil(ms));
    soon.unref?.();
  }

  function wake() {
    if (stopped) return;
    wanted = true;
    pumping ??= pump().finally(() => {
      pumping = null;
      if (wanted && !stopped) wake();
    });
  }

  async function renew(): Promise<number> {
    const ids = [...held.keys()];
    if (ids.length === 0) return 0;
    try {
      const kept = new Set(await queue.extendLeases(owner, ids, clock.now() + leaseMs));
      // An item recorded meanwhile released its lease: only one still held and not being recorded was lost.
      const lost = ids.filter((id) => !kept.has(id) && held.get(id) === 'held');
      if (lost.length > 0) logger.warn(`${kind} leases lost: another instance may attempt them too`, { ids: lost, owner });
      return kept.size;
    } catch (error) {
      logger.error(`renewing ${kind} leases failed`, { error: messageOf(error), owner });
      return 0;
    }
  }

  function renewLeases(): Promise<number> {
    renewing ??= renew().finally(() => (renewing = null));
    return renewing;
  }

  return {
    owner,
    start() {
      if (timer || stopped) return;
      timer = setInterval(wake, pollMs);
      timer.unref?.();
      heartbeat = setInterval(() => void renewLeases(), heartbeatMs);
      heartbeat.unref?.();
      wake();
    },
    wake,
    async runOnce() {
      let attempts = 0;
      for (;;) {
        const claimed = await claim(concurrency);
        if (claimed.length === 0) break;
        await Promise.all(claimed.map(launch));
        attempts += claimed.length;
      }
      return attempts;
    },
    renewLeases,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(soon);
      timer = undefined;
      await pumping;
      while (running.size > 0 || waiting.length > 0) {
        fill();
        await Promise.all([...running]);
      }
      // The heartbeat runs until the last item held is done with.
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      await renewing;
    },
    inFlight: () => running.size,
  };
}
