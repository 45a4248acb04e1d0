import { readdirSync, readFileSync } from 'node:fs';
/** A closed-loop HTTP load generator: `connections` workers, each sending its next request when the last answers. */

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
  /** how many requests `next` was asked for, warm-up included (the next free index for a caller that books) */
  asked: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /**
   * Seconds of the same load before the measured ones, not counted: the server compiles its hot paths and fills
   * its caches as it would long before any real minute of traffic (default 0).
   */
  warmupSeconds?: number;
  /** called once, as the measured seconds begin */
  onMeasure?: () => void;
  next: (i: number) => Request | null;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Runs for `seconds` (or until `next` returns null) with `connections` concurrent loops, after `warmupSeconds`
 * of the same load. `next(i)` builds the i-th request (i counts across all loops, warm-up included).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let counter = 0;
  const warmupEnd = performance.now() + (options.warmupSeconds ?? 0) * 1000;
  let measuring = false;
  let started = warmupEnd;
  let deadline = warmupEnd + options.seconds * 1000;
  const loop = async () => {
    for (;;) {
      const now = performance.now();
      if (!measuring && now >= warmupEnd) {
        measuring = true;
        started = now;
        deadline = now + options.seconds * 1000;
        options.onMeasure?.();
      }
      if (now >= deadline) return;
      const request = options.next(counter++);
      if (!request) return;
      const sent = performance.now();
      const response = await fetch(request);
      await response.arrayBuffer();
      // an answer to a request sent during the warm-up is not counted, even when it arrives after it
      if (sent < started) continue;
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
    asked: counter,
  };
}

export function machine(): string {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.+)/)?.[1] ?? 'unknown CPU';
  return `${navigator.hardwareConcurrency} cores, ${cpu}, Bun ${Bun.version}`;
}

/**
 * CPU time a process has used, ms, summed over its threads (/proc/<pid>/task/<tid>/schedstat: ns on a CPU). Unlike
 * the wall-clock time it hardly changes when other work shares the machine.
 */
export function cpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}
