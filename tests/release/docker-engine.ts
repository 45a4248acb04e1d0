import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../support/wait.ts';

/*
 * A Docker engine for tests/release/docker.test.ts: the one running, else a `dockerd` this process starts (as
 * root, with Debian's docker.io installed) and stops afterwards; and the Dockerfile's base image, pulled, or made
 * from Debian packages with debootstrap when no image registry can be reached.
 */

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; never throws for a non-zero exit (`check` does). */
export async function run(cmd: string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<Result> {
  const child = Bun.spawn({ cmd, cwd: options.cwd, stdin: options.input === undefined ? 'ignore' : new Blob([options.input]), stdout: 'pipe', stderr: 'pipe' });
  const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a command and resolves with its stdout, trimmed; rejects with its output when it fails. */
export async function check(cmd: string[], options: { input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  const result = await run(cmd, options);
  if (result.code !== 0) throw new Error(`${cmd.join(' ')} exited with ${result.code}:\n${result.stdout}${result.stderr}`);
  return result.stdout.trim();
}

export interface DockerEngine {
  /** why there is none (the test is skipped with this reason), or null */
  unavailable: string | null;
  /** stops the dockerd this process started, if it did */
  stop(): Promise<void>;
}

async function answers(): Promise<boolean> {
  if (!Bun.which('docker')) return false;
  return (await run(['docker', 'info', '--format', '{{.ServerVersion}}'], { timeoutMs: 10_000 })).code === 0;
}

/** The running Docker engine, or one started now; `unavailable` says why there is none. */
export async function dockerEngine(): Promise<DockerEngine> {
  const none = (reason: string): DockerEngine => ({ unavailable: reason, stop: async () => {} });
  if (!Bun.which('docker')) return none('no docker command (apt-get install docker.io)');
  if (await answers()) return { unavailable: null, stop: async () => {} };
  const dockerd = Bun.which('dockerd') ?? (Bun.which('dockerd', { PATH: '/usr/sbin:/usr/bin' }) || null);
  if (!dockerd) return none('no Docker engine answers and there is no dockerd to start (apt-get install docker.io)');
  if (process.getuid?.() !== 0) return none('no Docker engine answers, and starting dockerd needs root');

  const logDir = mkdtempSync(join(tmpdir(), 'svc-dockerd-'));
  const log = Bun.file(join(logDir, 'dockerd.log'));
  // No bridge and no iptables rules: the containers of the tests run on the host's network (loopback) or none.
  const daemon = Bun.spawn({ cmd: [dockerd, '--bridge=none', '--iptables=false', '--ip-masq=false'], stdin: 'ignore', stdout: log, stderr: log });
  const stop = async () => {
    if (daemon.exitCode === null) {
      daemon.kill('SIGTERM');
      await Promise.race([daemon.exited, Bun.sleep(20_000).then(() => daemon.kill('SIGKILL'))]);
    }
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (daemon.exitCode !== null) throw new Error(`dockerd exited with ${daemon.exitCode}`);
        return answers();
      },
      { timeoutMs: 30_000, what: 'dockerd to answer' },
    );
    console.log('docker test: started dockerd (stopped after the test)');
    return { unavailable: null, stop };
  } catch (error) {
    const tail = (await log.text().catch(() => '')).split('\n').slice(-15).join('\n');
    await stop();
    return none(`dockerd could not run here: ${(error as Error).message}\n${tail}`);
  }
}

/** Whether `image` is present in the engine. */
async function hasImage(image: string): Promise<boolean> {
  return (await run(['docker', 'image', 'inspect', image])).code === 0;
}

/**
 * Makes `image` (e.g. `debian:bookworm-slim`) present: as it is, else pulled, else built from Debian's packages
 * (debootstrap's minimal variant, without apt's lists and caches, documentation and locales, as Debian's slim
 * images are) and imported under the same name. Says which it did.
 */
export async function ensureBaseImage(image: string, suite: string): Promise<string> {
  if (await hasImage(image)) return `${image} present`;
  const pulled = await run(['docker', 'pull', image], { timeoutMs: 120_000 });
  if (pulled.code === 0) return `${image} pulled`;
  const debootstrap = Bun.which('debootstrap') ?? Bun.which('debootstrap', { PATH: '/usr/sbin:/usr/bin' });
  if (!debootstrap) throw new Error(`${image} cannot be pulled (${pulled.stderr.trim()}) and there is no debootstrap to make it (apt-get install debootstrap)`);
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'svc-rootfs-'));
  try {
    await check([debootstrap, '--variant=minbase', suite, root, 'http://deb.debian.org/debian'], { timeoutMs: 600_000 });
    for (const dir of ['var/cache/apt', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale']) {
      rmSync(join(root, dir), { recursive: true, force: true });
    }
    const tar = Bun.spawn({ cmd: ['tar', '-C', root, '-c', '.'], stdout: 'pipe', stderr: 'inherit' });
    const load = Bun.spawn({ cmd: ['docker', 'import', '--change', 'CMD ["bash"]', '-', image], stdin: tar.stdout, stdout: 'pipe', stderr: 'pipe' });
    const [tarCode, importCode, importErr] = await Promise.all([tar.exited, load.exited, new Response(load.stderr).text()]);
    if (tarCode !== 0 || importCode !== 0) throw new Error(`docker import of ${image} failed: ${importErr}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return `${image} cannot be pulled (${pulled.stderr.trim().split('\n').at(-1)}); made it with debootstrap in ${Math.round((performance.now() - started) / 1000)} s`;
}
