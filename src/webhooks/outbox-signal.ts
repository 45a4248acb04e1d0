import type { Storage } from '../storage/port.ts';

/** The storage writes that can add webhook messages (the outbox), and whether a result says they did. */
const WRITES_OUTBOX: Record<string, (result: unknown) => boolean> = {
  reserveBooking: (result) => (result as { ok?: boolean } | null)?.ok === true,
  transitionBooking: (result) => result !== null,
  settlePayment: (result) => result !== null,
  enqueueEvents: (result) => Array.isArray(result) && result.length > 0,
};

/**
 * `storage` that calls `signal` after every write that may have added webhook messages has committed, so the
 * delivery loop sends them at once; no feature has to remember to. Everything else passes through unchanged.
 * `signal` must not throw; it runs after the write resolved and cannot undo it.
 */
export function withOutboxSignal(storage: Storage, signal: () => void): Storage {
  return new Proxy(storage, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const wrote = typeof property === 'string' ? WRITES_OUTBOX[property] : undefined;
      if (!wrote) return value.bind(target);
      return async (...args: unknown[]) => {
        const result: unknown = await value.apply(target, args);
        if (wrote(result)) {
          try {
            signal();
          } catch {
            // The write is committed; the poll interval picks its messages up.
          }
        }
        return result;
      };
    },
  });
}
