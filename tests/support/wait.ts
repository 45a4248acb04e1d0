/** How often waitFor looks at its condition, ms. */
const POLL_MS = 5;

/**
 * Resolves with the condition's first truthy value; rejects naming `what` when `timeoutMs` (default 5000)
 * passes first. For what a test cannot be told about directly (another process's output, a row another
 * writer adds); where the code under test offers a signal or a manual clock, use that instead.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: { timeoutMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${options.what ?? 'a condition'} in vain`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
