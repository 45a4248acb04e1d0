import type { StorageChanges } from '../../ports/storage/index.ts';

/**
 * Calls `signal` after every write through `storage` that wrote webhook messages or mails (the outbox) has
 * committed (on Postgres, another instance's too), so the delivery loop sends them at once; no feature has to remember to. `signal` must not
 * throw: it runs after the write committed and cannot undo it (a throw is ignored; the poll interval picks
 * the messages up). Returns the function that stops it.
 */
export function signalOutboxWrites(storage: StorageChanges, signal: () => void): () => void {
  return storage.onChange((change) => {
    // missed: another instance's messages may be waiting
    if (change.kind === 'outbox' || change.kind === 'missed') signal();
  });
}
