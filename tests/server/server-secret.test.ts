import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, parseConfig } from '../../src/platform/config.ts';
import { LEGACY_SECRET_SETTING, resolveServerSecret, secretSource } from '../../src/platform/server-secret.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createLogger, silentLogger } from '../../src/platform/logger.ts';
import { openSigningSecret } from '../../src/platform/sealed-secrets.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { readLibsqlRows, startServe } from '../support/process.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

let db: TestDatabase | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  await db?.drop();
  server = undefined;
  db = undefined;
});

const secretFileOf = (database: TestDatabase) => join(dirname(database.env.DATABASE_URL!.slice('file:'.length)), 'svc.secret');
const OLD_SECRET = 'generated-by-an-older-svc-0123456789abcdefghijklmnop';

function collectingLogger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) };
}

describe('where the server secret comes from', () => {
  test('SVC_SECRET wins; a libSQL file keeps it beside itself (svc.db -> svc.secret); an in-memory database has its own', () => {
    expect(secretSource({ SVC_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://db/svc' })).toEqual({ kind: 'configured', secret: 'x'.repeat(32) });
    expect(secretSource({ DATABASE_URL: 'file:./data/svc.db' })).toEqual({ kind: 'file', path: resolve('data/svc.secret') });
    expect(secretSource({ DATABASE_URL: 'file:/var/lib/svc/bookings.sqlite?mode=rwc' })).toEqual({ kind: 'file', path: '/var/lib/svc/bookings.secret' });
    expect(secretSource({ DATABASE_URL: 'file:/var/lib/svc/db' })).toEqual({ kind: 'file', path: '/var/lib/svc/db.secret' });
    expect(secretSource({ DATABASE_URL: 'file::memory:' })).toEqual({ kind: 'memory' });
  });

  test('PostgreSQL or a remote libSQL server without SVC_SECRET -> ConfigError naming SVC_SECRET', () => {
    for (const url of ['postgres://svc@db/svc', 'postgresql://db/svc', 'libsql://svc.example.org', 'https://svc.example.org']) {
      let caught: unknown;
      try {
        secretSource({ DATABASE_URL: url });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).variable).toBe('SVC_SECRET');
      expect((caught as ConfigError).message).toStartWith('invalid configuration: SVC_SECRET is required with a ');
    }
  });
});

describe('a generated secret on a libSQL file', () => {
  test('svc serve keeps it in svc.secret (mode 0600) beside the database and nowhere in the database: a dump alone opens no webhook secret', async () => {
    db = await createTestDatabase('libsql');
    const { apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme' });
    const serve = await startServe({ env: { ...db.env, SVC_DEMO: 'false', SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    let created: { success: boolean; webhook: { id: string; secret: string } };
    try {
      const response = await fetch(`${serve.url}/api/v1/workspaces/acme/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-api-key': apiKey },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
      });
      expect(response.status).toBe(200);
      created = await response.json();
    } finally {
      expect(await serve.stop()).toBe(0);
    }

    const file = secretFileOf(db);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const dump = await readLibsqlRows(db.env.DATABASE_URL!);
    expect(dump.settings!.map((row) => row.key)).not.toContain(LEGACY_SECRET_SETTING);
    expect(JSON.stringify(dump)).not.toContain(secret);
    const [stored] = await db.storage.listWebhooks((await db.storage.getWorkspaceBySlug('acme'))!.id);
    expect(await openSigningSecret(stored!.secret, secret, created.webhook.id)).toBe(created.webhook.secret);
  });

  test('a restart reads the same file; two servers starting at once on a new database agree on one secret', async () => {
    db = await createTestDatabase('libsql');
    const other = db.reopen();
    const config = { DATABASE_URL: db.env.DATABASE_URL! };
    const [first, second] = await Promise.all([resolveServerSecret(db.storage, config, silentLogger), resolveServerSecret(other, config, silentLogger)]);
    expect(second).toBe(first);
    expect(readFileSync(secretFileOf(db), 'utf8')).toBe(`${first}\n`);
    expect(await resolveServerSecret(db.storage, config, silentLogger)).toBe(first);
  });

  test('an install that kept its generated secret in the database: the first start moves it into svc.secret and deletes it from the database, so sealed webhook secrets still open', async () => {
    db = await createTestDatabase('libsql');
    await db.storage.putSettingIfAbsent(LEGACY_SECRET_SETTING, OLD_SECRET);
    const { lines, logger } = collectingLogger();
    expect(await resolveServerSecret(db.storage, { DATABASE_URL: db.env.DATABASE_URL! }, logger)).toBe(OLD_SECRET);
    expect(readFileSync(secretFileOf(db), 'utf8')).toBe(`${OLD_SECRET}\n`);
    expect(statSync(secretFileOf(db)).mode & 0o777).toBe(0o600);
    expect(await db.storage.getSetting(LEGACY_SECRET_SETTING)).toBeNull();
    expect(lines).toEqual([expect.objectContaining({ level: 'info', msg: 'moved the generated secret out of the database', path: secretFileOf(db) })]);
    expect(JSON.stringify(lines)).not.toContain(OLD_SECRET);

    server = await startServer(parseConfig({ ...db.env, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SVC_DEMO: false }));
    expect(server.deps.config.SVC_SECRET).toBe(OLD_SECRET);
  });

  test('SVC_SECRET set: no file is written', async () => {
    db = await createTestDatabase('libsql');
    server = await startServer(parseConfig({ ...db.env, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', SVC_DEMO: false, SVC_SECRET: OLD_SECRET }));
    expect(server.deps.config.SVC_SECRET).toBe(OLD_SECRET);
    expect(existsSync(secretFileOf(db))).toBe(false);
  });
});

describe.skipIf(!POSTGRES_URL)('the secret on PostgreSQL', () => {
  test('a generated secret the database still holds is deleted once SVC_SECRET is set to it; another one stays, with a warning', async () => {
    db = await createTestDatabase('postgres');
    await db.storage.putSettingIfAbsent(LEGACY_SECRET_SETTING, OLD_SECRET);
    const other = collectingLogger();
    expect(await resolveServerSecret(db.storage, { DATABASE_URL: db.env.DATABASE_URL!, SVC_SECRET: 'x'.repeat(40) }, other.logger)).toBe('x'.repeat(40));
    expect(await db.storage.getSetting(LEGACY_SECRET_SETTING)).toBe(OLD_SECRET);
    expect(other.lines).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining('settings.svc_secret') })]);
    expect(JSON.stringify(other.lines)).not.toContain(OLD_SECRET);

    const same = collectingLogger();
    expect(await resolveServerSecret(db.storage, { DATABASE_URL: db.env.DATABASE_URL!, SVC_SECRET: OLD_SECRET }, same.logger)).toBe(OLD_SECRET);
    expect(await db.storage.getSetting(LEGACY_SECRET_SETTING)).toBeNull();
    expect(same.lines).toEqual([expect.objectContaining({ level: 'info', msg: 'moved the generated secret out of the database', to: 'SVC_SECRET' })]);
  });
});
