import { afterEach, describe, expect, test } from 'bun:test';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { findNulCharacter } from '../../src/platform/http/nul-characters.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { catalogue, bookingBody, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

const nulError = (path: string, field: string) => {
  const message = `${field} must not contain a NUL character (\\u0000)`;
  return { success: false, error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] };
};

describe('findNulCharacter', () => {
  test('names the first string or property name holding U+0000 as a JSON Pointer; null when there is none', () => {
    expect(findNulCharacter({ a: 'x', b: ['ok', { c: 'bad\u0000' }] })).toBe('/b/1/c');
    expect(findNulCharacter({ 'a/b': { '~k': '\u0000' } })).toBe('/a~1b/~0k');
    expect(findNulCharacter({ ['bad\u0000key']: 1 })).toBe('/bad\\u0000key');
    expect(findNulCharacter({ a: 'x', b: [1, true, null, { c: 'y' }] })).toBeNull();
  });
});

describeEachAdapter('a NUL character in input', (adapter) => {
  let app: TestApp;
  let lines: string[];
  afterEach(() => app.close());

  async function start() {
    lines = [];
    app = await createTestApp(adapter, { logger: createLogger('debug', (line) => lines.push(line)) });
    return catalogue(app);
  }

  test('in a JSON body string -> 400 VALIDATION_ERROR naming the field, nothing stored, nothing of it logged', async () => {
    const { service } = await start();
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: bookingBody(service, tuesday('10:00'), { name: 'Mia\u0000Schneider', notes: 'private note' }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nulError('/name', 'name'));
    expect(await storedBookings(app)).toEqual([]);
    expect(lines.join('\n')).not.toContain('Schneider');
    expect(lines.join('\n')).not.toContain('private note');
  });

  test('in a nested JSON value -> 400 naming its path; the workspace is unchanged', async () => {
    await start();
    const response = await app.request('PATCH', '/api/v1/workspaces/acme', {
      key: app.apiKey,
      body: { name: 'Fine', hours: { weekly: { mon: [{ start: '09:00', end: '1\u00007:00' }] } } },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nulError('/hours/weekly/mon/0/end', 'hours.weekly.mon[0].end'));
    expect((await app.db.storage.getWorkspaceBySlug('acme'))!.name).toBe('Acme Studio');
  });

  test('in a query value -> 400 naming the parameter', async () => {
    await start();
    const response = await app.request('GET', '/api/v1/workspaces/acme/bookings?email=mia%00@example.com', { key: app.apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nulError('/email', 'email'));
  });

  test('in a path parameter -> a 4xx with the error body, never a 500', async () => {
    await start();
    const response = await app.request('GET', '/api/v1/workspaces/ac%00me/config');
    expect([400, 404]).toContain(response.status);
    expect(response.body).toMatchObject({ success: false });
    expect(lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  test('a database error is answered 500 and logged without the values the query was given', async () => {
    await start();
    app.deps.storage.listBookings = async () => {
      throw new DrizzleQueryError('select * from bookings where email = $1', ['mia.schneider@example.com'], new Error('connection lost'));
    };
    const response = await app.request('GET', '/api/v1/workspaces/acme/bookings', { key: app.apiKey });
    expect(response.status).toBe(500);
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'unhandled error');
    expect(logged).toEqual([
      expect.objectContaining({ level: 'error', error: 'Failed query: select * from bookings where email = $1', cause: 'Error: connection lost' }),
    ]);
    expect(lines.join('\n')).not.toContain('mia.schneider');
  });
});
