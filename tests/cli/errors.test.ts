import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { readLibsqlRows, runCli } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';

/*
 * Every mistake in calling svc: one line on stderr, exit code 2, nothing on stdout (even with --json), and
 * nothing written. All cases share one database holding the workspace `acme`; after each command every row
 * of every table must be as before.
 */

let db: TestDatabase;
/** where the commands run: empty, and it must stay so */
let cwd: string;
let baseline: Awaited<ReturnType<typeof readLibsqlRows>>;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'svc-cli-cwd-'));
  db = await createTestDatabase('libsql');
  await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme' });
  baseline = await readLibsqlRows(db.env.DATABASE_URL!);
  expect(baseline.workspaces).toHaveLength(1);
  expect(baseline.api_keys).toHaveLength(1);
});
afterAll(async () => {
  await db.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const cases: { rule: string; args: string[]; env?: Record<string, string>; stderr: RegExp }[] = [
  { rule: 'workspace create without --slug', args: ['workspace', 'create', '--name', 'New', '--json'], stderr: /^svc workspace create: --slug is required$/ },
  { rule: 'workspace create without --name', args: ['workspace', 'create', '--slug', 'new', '--json'], stderr: /^svc workspace create: --name is required$/ },
  { rule: 'workspace create --slug with no value', args: ['workspace', 'create', '--name', 'New', '--slug'], stderr: /--slug/ },
  {
    rule: 'workspace create --slug "Bad Slug"',
    args: ['workspace', 'create', '--slug', 'Bad Slug', '--name', 'New', '--json'],
    stderr: /^svc workspace create: slug must be .*lower-case/,
  },
  {
    rule: 'workspace create with an unknown --timezone',
    args: ['workspace', 'create', '--slug', 'new', '--name', 'New', '--timezone', 'Mars/Olympus_Mons', '--json'],
    stderr: /timezone .*Mars\/Olympus_Mons/,
  },
  {
    rule: 'workspace create with a slug that exists',
    args: ['workspace', 'create', '--slug', 'acme', '--name', 'Again', '--json'],
    stderr: /^svc workspace create: .*acme already exists$/,
  },
  {
    rule: 'workspace create with an unknown option',
    args: ['workspace', 'create', '--slug', 'new', '--name', 'New', '--colour', 'red'],
    stderr: /^svc workspace create: .*--colour/,
  },
  {
    rule: 'workspace create with a stray argument',
    args: ['workspace', 'create', '--slug', 'new', '--name', 'New', 'extra'],
    stderr: /^svc workspace create: .*extra/,
  },
  { rule: 'an unknown command', args: ['frobnicate', '--json'], stderr: /^svc: unknown command "frobnicate/ },
  { rule: 'an incomplete command (svc workspace)', args: ['workspace'], stderr: /^svc: unknown command "workspace"/ },
  { rule: 'no command at all', args: [], stderr: /^svc: missing command .*svc --help/ },
  { rule: 'apikey create for an unknown workspace', args: ['apikey', 'create', '--workspace', 'nobody', '--json'], stderr: /^svc apikey create: .*nobody/ },
  { rule: 'apikey create without --workspace', args: ['apikey', 'create', '--json'], stderr: /^svc apikey create: --workspace is required$/ },
  {
    rule: 'pairing-code create for an unknown workspace',
    args: ['pairing-code', 'create', '--workspace', 'nobody', '--json'],
    stderr: /^svc pairing-code create: .*nobody/,
  },
  { rule: 'domains set with no domains', args: ['domains', 'set', '--workspace', 'acme', '--json'], stderr: /^svc domains set: give at least one domain/ },
  {
    rule: 'domains set with a URL instead of a domain',
    args: ['domains', 'set', '--workspace', 'acme', 'example.com', 'http://x/y', '--json'],
    stderr: /^svc domains set: not a domain: http:\/\/x\/y/,
  },
  { rule: 'domains set for an unknown workspace', args: ['domains', 'set', '--workspace', 'nobody', 'example.com'], stderr: /^svc domains set: .*nobody/ },
  {
    rule: 'a DATABASE_URL of an unsupported kind',
    args: ['workspace', 'create', '--slug', 'new', '--name', 'New', '--json'],
    env: { DATABASE_URL: 'mysql://x' },
    stderr: /^svc workspace create: invalid configuration: DATABASE_URL .*mysql:\/\/x/,
  },
  {
    rule: 'serve with a --port that is not a number',
    args: ['serve', '--port', 'abc'],
    stderr: /^svc serve: invalid configuration: PORT must be a whole number \(got "abc"\)$/,
  },
  {
    rule: 'serve on PostgreSQL without SVC_SECRET',
    args: ['serve', '--port', '0'],
    env: { DATABASE_URL: 'postgres://svc@127.0.0.1:1/svc' },
    stderr: /^svc serve: invalid configuration: SVC_SECRET is required with a PostgreSQL DATABASE_URL: every instance must use the same one/,
  },
  {
    rule: 'serve on a remote libSQL server without SVC_SECRET',
    args: ['serve', '--port', '0'],
    env: { DATABASE_URL: 'libsql://svc.example.invalid' },
    stderr: /^svc serve: invalid configuration: SVC_SECRET is required with a remote libSQL DATABASE_URL/,
  },
  {
    rule: 'a bad setting such as LOG_LEVEL=loud',
    args: ['migrate'],
    env: { LOG_LEVEL: 'loud' },
    stderr: /^svc migrate: invalid configuration: LOG_LEVEL must be one of/,
  },
];

describe.concurrent('svc called wrongly: one line on stderr, exit code 2, stdout empty, nothing written', () => {
  for (const { rule, args, env, stderr } of cases) {
    test(`${rule} -> exit 2 with one line on stderr`, async () => {
      const result = await runCli(args, { ...db.env, ...env }, cwd);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(2);
      expect(result.stderr.endsWith('\n')).toBe(true);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(stderr);
      expect(await readLibsqlRows(db.env.DATABASE_URL!)).toEqual(baseline);
    });
  }
});

test('no failed command wrote a file in its working directory (none fell back to the default file:./data/svc.db)', () => {
  expect(readdirSync(cwd)).toEqual([]);
});
