import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createClient } from '@libsql/client';
import postgres from 'postgres';
import { sha256Hex } from '../../src/core/secrets.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter, POSTGRES_URL } from '../support/storage.ts';
import { catalogue, tuesday } from '../bookings/fixtures.ts';
import { bearer, bootstrapRequest, SHOP } from './support.ts';

/*
 * Decisions section 8: API keys, pairing codes and host credentials are stored only as hashes; so are the
 * panel's one-time codes and session tokens, and manage-link tokens (hash plus a sealed copy); webhook signing
 * secrets are sealed. After a flow
 * that issues one of each, every row of every table is read straight from the database (not through the
 * storage port, which could hide a column) and no secret may appear in it, in any encoding a careless write
 * would leave: as issued, its random part without the prefix, or that part's bytes as hex.
 */

const V1 = '/api/v1/workspaces/acme';
const DATABASE_TIMEOUT_MS = 30_000;

/** Every value of every row of every table, as text (blobs as UTF-8 and as hex), with `table.column` for a failure message. */
async function dumpDatabase(ctx: TestApp): Promise<{ table: string; column: string; text: string }[]> {
  const cells: { table: string; column: string; text: string }[] = [];
  const add = (table: string, column: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      cells.push({ table, column, text: new TextDecoder().decode(bytes) }, { table, column, text: Buffer.from(bytes).toString('hex') });
      return;
    }
    cells.push({ table, column, text: typeof value === 'object' ? JSON.stringify(value) : String(value) });
  };
  if (ctx.db.adapter === 'libsql') {
    const client = createClient({ url: ctx.db.env.DATABASE_URL! });
    try {
      const tables = await client.execute("select name from sqlite_master where type = 'table'");
      for (const { name } of tables.rows) {
        const rows = await client.execute(`select * from "${String(name)}"`);
        for (const row of rows.rows) for (const column of rows.columns) add(String(name), column, row[column]);
      }
    } finally {
      client.close();
    }
    return cells;
  }
  const schema = new URL(ctx.db.env.DATABASE_URL!).searchParams.get('options')!.replace('-c search_path=', '');
  const sql = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql`select table_name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`;
    for (const { table_name: name } of tables) {
      const rows = await sql.unsafe(`select * from "${schema}"."${name}"`);
      for (const row of rows) for (const [column, value] of Object.entries(row)) add(name, column, value);
    }
  } finally {
    await sql.end();
  }
  return cells;
}

/** The forms of `secret` a dump must not hold. */
function encodings(secret: string): string[] {
  const random = secret.replace(/^(svc_[a-z]+_|whsec_)/, '');
  return [secret, random, Buffer.from(random, 'base64').toString('hex')];
}

describeEachAdapter('secrets at rest', (adapter) => {
  let ctx: TestApp;
  beforeEach(async () => {
    ctx = await createTestApp(adapter);
  }, DATABASE_TIMEOUT_MS);
  afterEach(() => ctx.close(), DATABASE_TIMEOUT_MS);

  test(
    'after issuing an API key, pairing codes, a host credential, one-time codes, sessions, a manage link, a calendar feed and a webhook secret, no table holds any of them',
    async () => {
      const secrets: Record<string, string> = { 'workspace API key': ctx.apiKey };

      const apiKey = await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { name: 'ci' } });
      expect(apiKey.status).toBe(200);
      secrets['created API key'] = apiKey.body.key;

      // one pairing code is used to link the shop, the other stays unused (its row stays as written)
      const used = await ctx.request('POST', `${V1}/pairing-codes`, { key: ctx.apiKey });
      const unused = await ctx.request('POST', `${V1}/pairing-codes`, { key: ctx.apiKey });
      secrets['used pairing code'] = used.body.pairingCode;
      secrets['unused pairing code'] = unused.body.pairingCode;
      const linked = await ctx.request('PUT', '/api/integrations/wordpress/panel/origin', {
        headers: { authorization: `SvcPair ${used.body.pairingCode}` },
        body: { version: 1, workspaceSlug: 'acme', origin: SHOP },
      });
      expect(linked.status).toBe(201);
      secrets['host credential'] = linked.body.hostCredential;

      // one bootstrap code is exchanged, the other is left to expire
      const exchanged = await bootstrapRequest(ctx, linked.body.hostCredential);
      const pending = await bootstrapRequest(ctx, linked.body.hostCredential);
      expect([exchanged.status, pending.status]).toEqual([201, 201]);
      secrets['exchanged one-time code'] = exchanged.body.code;
      secrets['pending one-time code'] = pending.body.code;
      const embedded = await ctx.request('POST', '/api/panel/session', { body: { code: exchanged.body.code, frameContext: exchanged.body.frameContext } });
      expect(embedded.status).toBe(201);
      secrets['embedded session token'] = embedded.body.token;

      const standalone = await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: apiKey.body.key } });
      expect(standalone.status).toBe(201);
      secrets['standalone session token'] = standalone.body.token;
      const renewed = await ctx.request('POST', '/api/panel/session/refresh', { headers: bearer(standalone.body.token) });
      expect(renewed.status).toBe(201);
      secrets['renewed session token'] = renewed.body.token;
      // the renewed session works, so its hash must be in the database
      expect((await ctx.request('GET', `${V1}/api-keys`, { headers: bearer(renewed.body.token) })).status).toBe(200);

      const { service } = await catalogue(ctx);
      const booking = await ctx.request('POST', `${V1}/bookings`, {
        key: ctx.apiKey,
        body: { serviceId: service.id, date: tuesday('10:00'), email: 'mia@example.com', name: 'Mia' },
      });
      expect(booking.status).toBe(200);
      secrets['manage-link token'] = booking.body.manageUrl.split('/manage/')[1];
      const feed = await ctx.request('POST', `${V1}/providers/${booking.body.booking.providerId}/calendar-feed`, { key: ctx.apiKey });
      expect(feed.status).toBe(200);
      secrets['calendar feed token'] = /\/ics\/([A-Za-z0-9_-]{43})\.ics$/.exec(feed.body.url)![1]!;

      // a webhook's signing secret is kept sealed (svc must sign with it), never as written
      const webhook = await ctx.request('POST', `${V1}/webhooks`, { key: ctx.apiKey, body: { url: 'https://hooks.example.com/svc', events: [] } });
      expect(webhook.status).toBe(200);
      secrets['webhook signing secret'] = webhook.body.webhook.secret;

      for (const [name, secret] of Object.entries(secrets))
        expect({ name, secret }).toEqual({ name, secret: expect.stringMatching(/^((svc_[a-z]+_)?[A-Za-z0-9_-]{43}|whsec_[A-Za-z0-9+/]{43}=)$/) });

      const cells = await dumpDatabase(ctx);
      const leaks = Object.entries(secrets).flatMap(([name, secret]) =>
        encodings(secret).flatMap((form) => cells.filter((cell) => cell.text.includes(form)).map((cell) => `${name} in ${cell.table}.${cell.column}`)),
      );
      expect(leaks).toEqual([]);

      // the dump did read the tables that matter: the hashes of secrets still in force are there
      const dumped = cells.map((cell) => cell.text).join('\n');
      const stillValid = ['created API key', 'unused pairing code', 'host credential', 'renewed session token', 'manage-link token', 'calendar feed token'];
      expect(stillValid.filter((name) => !dumped.includes(sha256Hex(secrets[name]!)))).toEqual([]);
    },
    DATABASE_TIMEOUT_MS,
  );
});
