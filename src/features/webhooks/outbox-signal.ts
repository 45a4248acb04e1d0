import { decorateStorage } from '../../platform/storage-effects/decorate.ts';
import type { Storage } from '../../ports/storage/index.ts';

/** The storage writes that can add webhook messages or mails (the outbox), and whether a result says they did. */
const WRITES_OUTBOX: Partial<Record<keyof Storage, (result: unknown) => boolean>> = {
  reserveBooking: (result) => (result as { ok?: boolean } | null)?.ok === true,
  transitionBooking: (result) => result !== null,
  settlePayment: (result) => result !== null,
  enqueueEvents: (result) => Array.isArray(result) && result.length > 0,
  enqueueMails: (result) => typeof result === 'number' && result > 0,
};

/**
 * `storage` that calls `signal` after every write that may have added webhook messages has committed, so the
 * delivery loop sends them at once; no feature has to remember to. Everything else passes through unchanged.
 * `signal` must not throw; it runs after the write resolved and cannot undo it.
 */
export function withOutboxSignal(storage: Storage, signal: () => void): Storage {
  const overrides: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, wrote] of Object.entries(WRITES_OUTBOX)) {
    const write = (storage[name as keyof Storage] as (...args: unknown[]) => Promise<unknown>).bind(storage);
    overrides[name] = async (...args) => {
      const result = await write(...args);
      if (wrote(result)) {
        try {
          signal();
        } catch {
          // The write is committed; the poll interval picks its messages up.
        }
      }
      return result;
    };
  }
  return decorateStorage(storage, overrides as Partial<Storage>);
}
