#!/usr/bin/env bun
import { parseArgs } from 'node:util';
import { openStorage } from '../adapters/storage/index.ts';
import { BackupUsageError, backupLibsqlFile, DatabaseInUseError, libsqlFilePath, restoreLibsqlFile } from '../adapters/storage/libsql/file.ts';
import { isClosedSocketWriteRace } from '../adapters/storage/postgres/index.ts';
import { loggableError } from './core/loggable-error.ts';
import type { Logger } from './platform/logger.ts';
import { findWorkspace } from './platform/access/api-key.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { createPairingCode } from './features/panel/index.ts';
import { systemClock } from './core/clock.ts';
import { AppError } from './core/errors.ts';
import type { Storage } from './ports/storage/index.ts';
import { versionLine } from './platform/version.ts';
import type { ServeRole } from './server.ts';
import { normalizeDomain } from './platform/access/domains.ts';
import { checkNewWorkspace, createApiKey, createWorkspace, toWorkspaceJson } from './features/workspaces/index.ts';

/** A mistake in how svc was called: one line on stderr, exit code 2, nothing written. */
class UsageError extends Error {}

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  positionals?: 'none' | 'some';
  /** Resolves when the command is done (with its exit code when not 0), or with 'serving' when it keeps the process running. */
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<void | number | 'serving'>;
}

const json = { type: 'boolean' } as const;
const help = { type: 'boolean', short: 'h' } as const;

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function withStorage<T>(work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = openStorage(loadConfig().DATABASE_URL);
  try {
    await storage.migrate();
    return await work(storage);
  } finally {
    await storage.close();
  }
}

function print(values: Record<string, unknown>, result: Record<string, unknown>, human: string) {
  process.stdout.write(values.json ? JSON.stringify(result) + '\n' : human + '\n');
}

/**
 * Runs `work` on the DATABASE_URL's libSQL file for `svc backup` / `svc restore`; on any other database the command
 * is refused (exit code 2), saying why and what to use instead.
 */
async function withLibsqlFile(command: 'backup' | 'restore', work: (file: string) => Promise<void>): Promise<void | number> {
  const url = loadConfig().DATABASE_URL;
  const file = libsqlFilePath(url);
  if (file) return work(file);
  if (/^postgres(ql)?:\/\//.test(url)) {
    return refuse(
      command,
      command === 'backup'
        ? 'svc backup copies a libSQL file; on PostgreSQL use pg_dump, e.g.\n  pg_dump --format=custom --file=svc.dump "$DATABASE_URL"'
        : 'svc restore puts back a libSQL file; on PostgreSQL use pg_restore (with svc stopped), e.g.\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" svc.dump',
    );
  }
  return refuse(
    command,
    `svc ${command} works on a libSQL file (DATABASE_URL=file:…); use the tools of your libSQL server for ${url.split(':')[0]}: databases`,
  );
}

const ROLES: readonly ServeRole[] = ['all', 'web', 'worker'];

/**
 * Keeps `svc serve` alive through postgres.js's known throw after a connection closed (isClosedSocketWriteRace:
 * the affected queries have failed already, and their requests got 503), which would otherwise end the process
 * in the middle of a database outage. Any other uncaught error still ends it, as it would have.
 */
function survivePostgresJsRace(logger: Logger) {
  process.on('uncaughtException', (error) => {
    if (isClosedSocketWriteRace(error)) {
      logger.warn('ignored a postgres.js write on a closed connection (porsager/postgres#1066)', { error: error.message });
      return;
    }
    logger.error('uncaught error', loggableError(error));
    process.exit(1);
  });
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'svc serve [--port N] [--host H] [--role all|web|worker]',
    summary: 'run the API, widget, panel and scheduler (migrations run first); --role web: HTTP only, worker: background work only',
    options: { port: { type: 'string', short: 'p' }, host: { type: 'string' }, role: { type: 'string' }, help },
    async run(values) {
      const flags: Record<string, string> = {};
      if (typeof values.port === 'string') flags.port = values.port;
      if (typeof values.host === 'string') flags.host = values.host;
      const role = values.role ?? 'all';
      if (!ROLES.includes(role as ServeRole)) throw new UsageError(`--role must be one of ${ROLES.join(', ')} (got ${JSON.stringify(role)})`);
      const config = loadConfig(process.env, flags);
      if (role !== 'all' && libsqlFilePath(config.DATABASE_URL)) {
        throw new UsageError(`--role ${String(role)} needs a database several servers share (PostgreSQL): a libSQL file is served by one svc serve --role all`);
      }
      // Loaded only here: the HTTP server and its features are not needed by the other commands.
      const { startServer } = await import('./server.ts');
      const server = await startServer(config, { role: role as ServeRole });
      survivePostgresJsRace(server.deps.logger);
      const shutdown = () => void server.stop().then(() => process.exit(0));
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
      return 'serving';
    },
  },
  backup: {
    usage: 'svc backup --out FILE [--json]',
    summary: 'write a consistent copy of the libSQL database to a new FILE, while svc serves (PostgreSQL: pg_dump)',
    options: { out: { type: 'string' }, json, help },
    async run(values) {
      const out = required(values, 'out');
      return withLibsqlFile('backup', async (file) => {
        const backup = await backupLibsqlFile(file, out);
        print(values, { backup: backup.path, bytes: backup.bytes }, `backup of ${file} written to ${backup.path} (${backup.bytes} bytes)`);
      });
    },
  },
  restore: {
    usage: 'svc restore --from FILE [--json]',
    summary: 'put a backup in place of the libSQL database, with svc stopped; the replaced one is kept beside it (PostgreSQL: pg_restore)',
    options: { from: { type: 'string' }, json, help },
    async run(values) {
      const from = required(values, 'from');
      return withLibsqlFile('restore', async (file) => {
        const { previous } = await restoreLibsqlFile(file, from, new Date(systemClock.now()));
        print(
          values,
          { restored: file, from, previous },
          `restored ${file} from ${from}${previous ? `; the database it replaced is kept as ${previous}` : ''}`,
        );
      });
    },
  },
  migrate: {
    usage: 'svc migrate',
    summary: 'apply database migrations and exit',
    options: { json, help },
    async run(values) {
      await withStorage(async () => {});
      print(values, { migrated: true }, 'database is up to date');
    },
  },
  'workspace create': {
    usage: 'svc workspace create --slug S --name N [--timezone TZ] [--json]',
    summary: 'create a workspace and print it with its first API key (shown once)',
    options: { slug: { type: 'string' }, name: { type: 'string' }, timezone: { type: 'string' }, json, help },
    async run(values) {
      const slug = required(values, 'slug');
      const name = required(values, 'name');
      const timezone = typeof values.timezone === 'string' ? values.timezone : undefined;
      checkNewWorkspace({ slug, name, timezone });
      const { workspace, apiKey } = await withStorage((storage) => createWorkspace({ storage, clock: systemClock }, { slug, name, timezone }));
      // The API's Workspace body, so the CLI and the API print a workspace alike.
      print(
        values,
        {
          workspace: {
            ...toWorkspaceJson(workspace),
            createdAt: new Date(workspace.createdAt).toISOString(),
            updatedAt: new Date(workspace.updatedAt).toISOString(),
          },
          apiKey,
        },
        `created workspace ${workspace.slug} (${workspace.id}, ${workspace.timezone})\nAPI key (shown once, keep it secret): ${apiKey}`,
      );
    },
  },
  'apikey create': {
    usage: 'svc apikey create --workspace S [--name N] [--json]',
    summary: 'create another API key for a workspace (shown once)',
    options: { workspace: { type: 'string' }, name: { type: 'string' }, json, help },
    async run(values) {
      const slug = required(values, 'workspace');
      const name = typeof values.name === 'string' ? values.name : 'cli';
      const apiKey = await withStorage(async (storage) => {
        const workspace = await findWorkspace({ storage }, slug);
        return createApiKey({ storage, clock: systemClock }, workspace.id, name);
      });
      print(values, { apiKey }, `API key for ${slug} (shown once, keep it secret): ${apiKey}`);
    },
  },
  'pairing-code create': {
    usage: 'svc pairing-code create --workspace S [--json]',
    summary: 'create a single-use code (valid 1 hour) that links a host site to the admin panel',
    options: { workspace: { type: 'string' }, json, help },
    async run(values) {
      const slug = required(values, 'workspace');
      const result = await withStorage(async (storage) => {
        const workspace = await findWorkspace({ storage }, slug);
        return createPairingCode({ storage, clock: systemClock }, workspace.id);
      });
      print(values, result, `pairing code for ${slug} (single use, expires ${result.expiresAt}): ${result.pairingCode}`);
    },
  },
  'domains set': {
    usage: 'svc domains set --workspace S DOMAIN [DOMAIN ...] [--json]',
    summary: 'replace the domains allowed to embed the booking widget (*.example.org allows subdomains)',
    options: { workspace: { type: 'string' }, json, help },
    positionals: 'some',
    async run(values, positionals) {
      const slug = required(values, 'workspace');
      if (positionals.length === 0) throw new UsageError('give at least one domain, e.g. svc domains set --workspace acme example.com');
      const domains = positionals.map((input) => {
        const domain = normalizeDomain(input);
        if (!domain) throw new UsageError(`not a domain: ${input} (write example.com or *.example.com, without scheme or path)`);
        return domain;
      });
      const unique = [...new Set(domains)];
      await withStorage(async (storage) => {
        const workspace = await findWorkspace({ storage }, slug);
        await storage.updateWorkspace(workspace.id, { domains: unique }, systemClock.now());
      });
      print(values, { workspace: slug, domains: unique }, `allowed widget domains of ${slug}: ${unique.join(', ')}`);
    },
  },
};

/** A command that cannot do its work on this database: says why and what to use instead on stderr; exit code 2. */
function refuse(command: string, message: string): Promise<number> {
  process.stderr.write(`svc ${command}: ${message}\n`);
  return Promise.resolve(2);
}

function topHelp(): string {
  const width = Math.max(...Object.values(COMMANDS).map((command) => command.usage.length));
  return [
    'svc: booking, scheduling and payments service',
    '',
    'usage:',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
    '',
    'Every command reads DATABASE_URL (default file:./data/svc.db). svc COMMAND --help for details.',
    'svc --version prints the version and the commit it was built from.',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.summary}`;
}

function findCommand(args: string[]): { name: string; command: Command; rest: string[] } | null {
  for (const words of [2, 1]) {
    const name = args.slice(0, words).join(' ');
    const command = COMMANDS[name];
    if (command && args.slice(0, words).every((word) => !word.startsWith('-'))) return { name, command, rest: args.slice(words) };
  }
  return null;
}

/** Runs one command line; resolves with the exit code, or 'serving' while the server runs. */
export async function main(args: string[]): Promise<number | 'serving'> {
  if (args.length === 0) {
    // A mistake like any other: one line on stderr, nothing on stdout (which scripts read), exit code 2.
    process.stderr.write(`svc: missing command (${Object.keys(COMMANDS).join(', ')}); run svc --help\n`);
    return 2;
  }
  if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    process.stdout.write(topHelp() + '\n');
    return 0;
  }
  if (args[0] === '--version' || args[0] === '-v' || args[0] === 'version') {
    process.stdout.write(versionLine() + '\n');
    return 0;
  }
  const found = findCommand(args);
  if (!found) {
    process.stderr.write(`svc: unknown command "${args.slice(0, 2).join(' ')}"; run svc --help\n`);
    return 2;
  }
  const { name, command, rest } = found;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: command.positionals === 'some', strict: true });
    if (values.help) {
      process.stdout.write(commandHelp(command) + '\n');
      return 0;
    }
    return (await command.run(values, positionals)) ?? 0;
  } catch (error) {
    const usage =
      error instanceof UsageError
      || error instanceof ConfigError
      || error instanceof DatabaseInUseError
      || error instanceof BackupUsageError
      || (error instanceof AppError && error.status < 500)
      || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc ${name}: ${message.split('\n')[0]}\n`);
    return usage ? 2 : 1;
  }
}

if (import.meta.main) {
  const outcome = await main(process.argv.slice(2));
  if (outcome !== 'serving') process.exit(outcome);
}
