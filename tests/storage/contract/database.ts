import { afterAll, afterEach, beforeEach } from 'bun:test';
import type { Storage } from '../../../src/ports/storage/index.ts';
import { createTestDatabase, type AdapterName, type TestDatabase } from '../../support/storage.ts';
import { DATABASE_TIMEOUT_MS } from './fixtures.ts';

/*
 * The database of the test running now, fresh for every test, and its storage. The parts of the contract read
 * them as they are when a test runs (exported bindings follow the hooks' assignments); tests run one at a time.
 */
export let db: TestDatabase;
export let storage: Storage;

/** Gives every test of the enclosing describe block a fresh, migrated database of `adapter`, dropped after it. */
export function freshDatabaseEachTest(adapter: AdapterName) {
  let ran = 0;

  // Creating and dropping a Postgres schema waits for every other test run's migrations (one advisory lock).
  beforeEach(async () => {
    db = await createTestDatabase(adapter);
    storage = db.storage;
  }, DATABASE_TIMEOUT_MS);
  afterEach(async () => {
    ran++;
    await db.drop();
  }, DATABASE_TIMEOUT_MS);
  afterAll(() => {
    console.log(`storage contract [${adapter}]: ${ran} tests ran`);
  });
}
