import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { findWorkspaceKey } from '../../src/platform/access/api-key.ts';
import { sha256Hex } from '../../src/core/secrets.ts';
import { readLibsqlRows, runCli, type CliResult } from '../support/process.ts';
import { createTestDatabase, describeEachAdapter, type TestDatabase } from '../support/storage.ts';

const API_KEY = /^svc_live_[A-Za-z0-9_-]{43}$/;

/** The one JSON object a `--json` command printed: stdout must be exactly that object and a newline. */
function jsonOutput(result: CliResult): Record<string, any> {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.stdout.endsWith('}\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  const parsed: unknown = JSON.parse(result.stdout);
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  return parsed as Record<string, any>;
}

/** True when `key` is a live API key of the workspace `slug`, checked the way the API checks it. */
async function keyWorks(db: TestDatabase, slug: string, key: string): Promise<boolean> {
  const workspace = await db.storage.getWorkspaceBySlug(slug);
  if (!workspace) return false;
  return (await findWorkspaceKey({ storage: db.storage }, workspace, key)) !== null;
}

/** Whether `secret` appears in any row of the libSQL database, or anywhere in its files (database and WAL). */
async function appearsInLibsql(db: TestDatabase, secret: string): Promise<boolean> {
  const rows = await readLibsqlRows(db.env.DATABASE_URL!);
  if (JSON.stringify(rows).includes(secret)) return true;
  const file = db.env.DATABASE_URL!.slice('file:'.length);
  return readdirSync(dirname(file)).some((name) => readFileSync(join(dirname(file), name)).includes(secret));
}

describeEachAdapter('svc workspace create / apikey create', (adapter) => {
  let db: TestDatabase;
  let created: CliResult;
  const slug = `ws-${adapter}`;

  beforeAll(async () => {
    db = await createTestDatabase(adapter);
    created = await runCli(['workspace', 'create', '--slug', slug, '--name', 'Acme Studio', '--timezone', 'Europe/Berlin', '--json'], db.env);
  });
  afterAll(() => db.drop());

  test('workspace create --json prints exactly one JSON object { workspace, apiKey } and nothing else', async () => {
    const output = jsonOutput(created);
    expect(Object.keys(output).sort()).toEqual(['apiKey', 'workspace']);
    const stored = (await db.storage.getWorkspaceBySlug(slug))!;
    expect(output.workspace).toEqual({
      id: stored.id,
      slug,
      name: 'Acme Studio',
      primaryColor: null,
      plan: 'self-hosted',
      industry: 'other',
      timezone: 'Europe/Berlin',
      language: 'en',
      timeFormat: '24h',
      cancellationHours: 24,
      logoUrl: null,
      notificationEmail: null,
      locale: 'en',
      contactEmail: null,
      contactPhone: null,
      requiresConfirmation: false,
      refundOnCancel: false,
      createdAt: new Date(stored.createdAt).toISOString(),
      updatedAt: new Date(stored.updatedAt).toISOString(),
    });
    expect(output.workspace.id).toMatch(/^ws_/);
  });

  test('workspace create: the printed svc_live_ key is a working API key of the new workspace, stored only as its hash', async () => {
    const { apiKey, workspace } = jsonOutput(created);
    expect(apiKey).toMatch(API_KEY);
    const record = await db.storage.findApiKeyByHash(sha256Hex(apiKey));
    expect(record).toMatchObject({ workspaceId: workspace.id, hash: sha256Hex(apiKey), revokedAt: null });
    expect(await keyWorks(db, slug, apiKey)).toBe(true);
    expect(await keyWorks(db, slug, apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A'))).toBe(false);
    if (adapter === 'libsql') expect(await appearsInLibsql(db, apiKey)).toBe(false);
  });

  test('apikey create --workspace S --name N --json prints { apiKey }: a second, different key that works', async () => {
    const output = jsonOutput(await runCli(['apikey', 'create', '--workspace', slug, '--name', 'ci', '--json'], db.env));
    expect(Object.keys(output)).toEqual(['apiKey']);
    expect(output.apiKey).toMatch(API_KEY);
    expect(output.apiKey).not.toBe(jsonOutput(created).apiKey);
    const record = await db.storage.findApiKeyByHash(sha256Hex(output.apiKey));
    expect(record).toMatchObject({ workspaceId: jsonOutput(created).workspace.id, name: 'ci' });
    expect(await keyWorks(db, slug, output.apiKey)).toBe(true);
    expect(await keyWorks(db, slug, jsonOutput(created).apiKey)).toBe(true);
  });
});

describe('svc commands on a libSQL file', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    jsonOutput(await runCli(['workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--json'], db.env));
  });
  afterAll(() => db.drop());

  test('workspace create without --json prints a human summary with the slug and the key, not JSON', async () => {
    const result = await runCli(['workspace', 'create', '--slug', 'human', '--name', 'Human Readable'], db.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(() => JSON.parse(result.stdout)).toThrow();
    const workspace = (await db.storage.getWorkspaceBySlug('human'))!;
    expect(workspace.timezone).toBe('UTC');
    expect(result.stdout).toStartWith(`created workspace human (${workspace.id}, UTC)\n`);
    const key = result.stdout.match(/svc_live_[A-Za-z0-9_-]+/)?.[0];
    expect(key).toMatch(API_KEY);
    expect(await keyWorks(db, 'human', key!)).toBe(true);
  });

  test('apikey create without --name or --json prints the key in a sentence; the key is named "cli"', async () => {
    const result = await runCli(['apikey', 'create', '--workspace', 'acme'], db.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toStartWith('API key for acme');
    const key = result.stdout.match(/svc_live_[A-Za-z0-9_-]+/)![0];
    expect(await db.storage.findApiKeyByHash(sha256Hex(key))).toMatchObject({ name: 'cli' });
  });

  test('pairing-code create --json prints { pairingCode, expiresAt } expiring in 1 hour; only the hash is stored', async () => {
    const before = Date.now();
    const output = jsonOutput(await runCli(['pairing-code', 'create', '--workspace', 'acme', '--json'], db.env));
    const after = Date.now();
    expect(Object.keys(output).sort()).toEqual(['expiresAt', 'pairingCode']);
    expect(output.pairingCode).toMatch(/^svc_pair_[A-Za-z0-9_-]{43}$/);
    expect(output.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const expiresAt = Date.parse(output.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3_600_000 + 1000);

    const rows = (await readLibsqlRows(db.env.DATABASE_URL!)).pairing_codes!;
    const workspace = (await db.storage.getWorkspaceBySlug('acme'))!;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workspace_id: workspace.id, code_hash: sha256Hex(output.pairingCode), expires_at: expiresAt, used_at: null });
    expect(await appearsInLibsql(db, output.pairingCode)).toBe(false);
    expect(await appearsInLibsql(db, sha256Hex(output.pairingCode))).toBe(true);
    // the code is the one stored: it links once
    expect(await db.storage.consumePairingCode(sha256Hex(output.pairingCode), Date.now())).toMatchObject({ workspaceId: workspace.id });
  });

  test('domains set stores the domains lower-cased, without a trailing dot, each once, and --json prints them', async () => {
    const output = jsonOutput(
      await runCli(['domains', 'set', '--workspace', 'acme', 'Example.COM', '*.example.org', 'www.example.net.', 'example.com', '--json'], db.env),
    );
    const expected = ['example.com', '*.example.org', 'www.example.net'];
    expect(output).toEqual({ workspace: 'acme', domains: expected });
    expect((await db.storage.getWorkspaceBySlug('acme'))!.domains).toEqual(expected);
  });

  test('domains set replaces the previous list', async () => {
    const result = await runCli(['domains', 'set', '--workspace', 'acme', 'shop.example.com'], db.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toBe('allowed widget domains of acme: shop.example.com\n');
    expect((await db.storage.getWorkspaceBySlug('acme'))!.domains).toEqual(['shop.example.com']);
  });
});

describe('svc migrate', () => {
  test('migrate creates the schema of a new database and a second run changes nothing; both exit 0', async () => {
    const db = await createTestDatabase('libsql');
    const url = `file:${join(dirname(db.env.DATABASE_URL!.slice('file:'.length)), 'fresh', 'svc.db')}`;
    try {
      const first = await runCli(['migrate'], { DATABASE_URL: url });
      expect(first).toEqual({ code: 0, stdout: 'database is up to date\n', stderr: '' });
      const migrated = await readLibsqlRows(url);
      expect(Object.keys(migrated)).toEqual(expect.arrayContaining(['workspaces', 'api_keys', 'pairing_codes', 'bookings']));

      const second = await runCli(['migrate', '--json'], { DATABASE_URL: url });
      expect(jsonOutput(second)).toEqual({ migrated: true });
      expect(await readLibsqlRows(url)).toEqual(migrated);

      const storage = libsqlStorage(url);
      try {
        expect(await storage.getWorkspaceBySlug('nobody')).toBeNull();
      } finally {
        await storage.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe.concurrent('svc --help', () => {
  test('svc --help exits 0 and prints the usage of every command', async () => {
    const result = await runCli(['--help'], {});
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    for (const usage of [
      'svc serve',
      'svc migrate',
      'svc workspace create --slug S --name N',
      'svc apikey create --workspace S',
      'svc pairing-code create --workspace S',
      'svc domains set --workspace S',
    ]) {
      expect(result.stdout).toContain(usage);
    }
    expect(result.stdout).toContain('DATABASE_URL');
  });

  test("svc --version and svc version print the version from package.json and the checkout's commit", async () => {
    const { version } = (await Bun.file(join(import.meta.dir, '..', '..', 'package.json')).json()) as { version: string };
    for (const args of [['--version'], ['version']]) {
      const result = await runCli(args, {});
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^svc ${version.replaceAll('.', '\\.')} \\(([0-9a-f]{7,}|dev)\\)\n$`));
    }
  });

  for (const command of ['serve', 'migrate', 'workspace create', 'apikey create', 'pairing-code create', 'domains set']) {
    test(`svc ${command} --help exits 0 and prints its usage (and does nothing else)`, async () => {
      const result = await runCli([...command.split(' '), '--help'], { DATABASE_URL: 'file:/nonexistent-dir/never-created.db' });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toStartWith(`usage: svc ${command}`);
    });
  }
});
