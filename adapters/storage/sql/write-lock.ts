/**
 * An async mutex. libSQL lets one connection write at a time; a second in-process writer would block the
 * event loop in SQLite's busy handler while the first one (on the same loop) can never finish, so writers of
 * one process queue here and only other processes meet the busy timeout.
 */
export class WriteLock {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}
