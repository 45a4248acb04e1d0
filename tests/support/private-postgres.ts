import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from './process.ts';
import { waitFor } from './wait.ts';

/*
 * A PostgreSQL cluster of the test's own (initdb on a temp directory, pg_ctl on a free port), for tests that stop
 * and start the database under a running svc: the shared server of SVC_TEST_POSTGRES_URL must never be stopped.
 * initdb refuses to run as root, so as root the cluster runs as the `postgres` user (runuser).
 */

/** The server binaries of the newest installed PostgreSQL (Debian's /usr/lib/postgresql/<version>/bin), or null. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

const BIN = postgresBin();
const AS_ROOT = userInfo().uid === 0;

/** Why a private cluster cannot be started here, or null when it can. */
export function privatePostgresMissing(): string | null {
  if (!BIN) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin';
  if (AS_ROOT && !existsSync('/usr/sbin/runuser')) return 'running as root without runuser (initdb refuses root)';
  return null;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: sessions are ended, the port closes; resolves once the server is down */
  stop(): Promise<void>;
  /** `pg_ctl start`; resolves once it accepts connections */
  start(): Promise<void>;
  /** a query on a connection of its own (opened and closed around it) */
  query<T extends object>(text: string): Promise<T[]>;
  /** stops the server (immediately) and removes its directory */
  destroy(): Promise<void>;
}

async function run(cmd: string[]): Promise<void> {
  const full = AS_ROOT ? ['/usr/sbin/runuser', '-u', 'postgres', '--', ...cmd] : cmd;
  const child = Bun.spawn({ cmd: full, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`);
}

/** initdb on a temp directory and start the server on a free port of 127.0.0.1 (trust authentication, no fsync). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!BIN) throw new Error(privatePostgresMissing() ?? 'no PostgreSQL');
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (AS_ROOT) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = freePort();
  await run([join(BIN, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const pgCtl = (...args: string[]) => run([join(BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'server.log'), ...args]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const start = async () => {
    await pgCtl('-o', options, '-w', '-t', '30', 'start');
    await waitFor(
      () =>
        query('select 1').then(
          () => true,
          () => false,
        ),
      { timeoutMs: 15_000, what: 'the private Postgres to accept connections' },
    );
  };
  const query = async <T extends object>(text: string): Promise<T[]> => {
    const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      return (await sql.unsafe(text)) as unknown as T[];
    } finally {
      await sql.end({ timeout: 1 });
    }
  };
  try {
    await start();
  } catch (error) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the private Postgres did not start: ${error instanceof Error ? error.message : error}\n${log}`);
  }
  return {
    url,
    port,
    stop: () => pgCtl('-m', 'fast', '-w', '-t', '30', 'stop'),
    start,
    query,
    async destroy() {
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user in /etc/passwd');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
