/** A closed-loop HTTP load generator: `connections` workers, each sending its next request when the last answers. */

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Runs for `seconds` (or until `next` returns null) with `connections` concurrent loops. `next(i)` builds the
 * i-th request (i counts across all loops).
 */
export async function runLoad(options: { connections: number; seconds: number; next: (i: number) => Request | null }): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let counter = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const request = options.next(counter++);
      if (!request) return;
      const sent = performance.now();
      const response = await fetch(request);
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}

export function machine(): string {
  const cpu =
    require('node:fs')
      .readFileSync('/proc/cpuinfo', 'utf8')
      .match(/model name\s*:\s*(.+)/)?.[1] ?? 'unknown CPU';
  return `${navigator.hardwareConcurrency} cores, ${cpu}, Bun ${Bun.version}`;
}
