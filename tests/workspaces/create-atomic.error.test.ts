import { afterEach, expect, test } from 'bun:test';
import { createClient } from '@libsql/client';
import postgres from 'postgres';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { readLibsqlRows, runCli } from '../support/process.ts';
import { type AdapterName, createTestDatabase, describeEachAdapter, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

/*
 * `svc workspace create` (and the service behind it) stores the workspace and its first API key together: when
 * the key cannot be stored, no workspace is left behind without a key nobody could ever use or see.
 */

const FAILURE = 'api key insert refused by the test';

/** Makes every insert into api_keys fail inside the database itself, as a full disk or a lost connection would. */
async function refuseKeyInserts(db: TestDatabase): Promise<void> {
  if (db.adapter === 'libsql') {
    const client = createClient({ url: db.env.DATABASE_URL! });
    await client.execute(`CREATE TRIGGER refuse_keys BEFORE INSERT ON api_keys BEGIN SELECT RAISE(ABORT, '${FAILURE}'); END`);
    client.close();
    return;
  }
  const schema = new URL(db.env.DATABASE_URL!).searchParams.get('options')!.replace('-c search_path=', '');
  const admin = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE FUNCTION "${schema}".refuse_keys() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${FAILURE}'; END $$`);
    await admin.unsafe(`CREATE TRIGGER refuse_keys BEFORE INSERT ON "${schema}".api_keys FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_keys()`);
  } finally {
    await admin.end();
  }
}

let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.drop();
  db = undefined;
});

describeEachAdapter('createWorkspace is all or nothing', (adapter: AdapterName) => {
  test('the first key cannot be stored -> the call fails and no workspace exists', async () => {
    db = await createTestDatabase(adapter);
    await refuseKeyInserts(db);
    const deps = { storage: db.storage, clock: systemClock };
    const error = await createWorkspace(deps, { slug: 'acme', name: 'Acme' }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message) + String((error as Error).cause ?? '')).toContain(FAILURE);
    expect(await db.storage.getWorkspaceBySlug('acme')).toBeNull();
  });
});

test('svc workspace create whose key cannot be stored: exit 1, one line on stderr, stdout empty, nothing written', async () => {
  db = await createTestDatabase('libsql');
  await refuseKeyInserts(db);
  const before = await readLibsqlRows(db.env.DATABASE_URL!);
  const result = await runCli(['workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--json'], db.env);
  expect(result.stdout).toBe('');
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toStartWith('svc workspace create: ');
  expect(await readLibsqlRows(db.env.DATABASE_URL!)).toEqual(before);
});
