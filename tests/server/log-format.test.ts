import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger, logFormatOf } from '../../src/platform/logger.ts';
import { runCli, startServe } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';

/* LOG_FORMAT: JSON lines unless a person watches a terminal, or the setting says otherwise (README "Logs"). */

describe('the log format', () => {
  test('default: json when stdout or stderr is not a terminal, text when both are; LOG_FORMAT wins either way', () => {
    expect(logFormatOf(loadConfig({}), false)).toBe('json');
    expect(logFormatOf(loadConfig({}), true)).toBe('text');
    expect(logFormatOf(loadConfig({ LOG_FORMAT: 'json' }), true)).toBe('json');
    expect(logFormatOf(loadConfig({ LOG_FORMAT: 'text' }), false)).toBe('text');
  });

  test('LOG_FORMAT=xml is refused naming the variable and the choices', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('invalid configuration: LOG_FORMAT must be one of json, text (got "xml")');
  });

  test('json: one object a line; text: time, level, message and key=value pairs, strings quoted only when they must be', () => {
    const lines: string[] = [];
    const write = (line: string) => lines.push(line);
    createLogger('info', write, 'json').info('request', { method: 'GET', path: '/healthz', status: 200, ms: 0.4 });
    createLogger('info', write, 'text').warn('mail not sent', { mailId: 'mail_1', error: 'SMTP 451, try later', retryAt: null, skipped: undefined });
    createLogger('warn', write, 'text').info('not written');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({ time: expect.any(String), level: 'info', msg: 'request', method: 'GET', path: '/healthz', status: 200, ms: 0.4 });
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN {2}mail not sent mailId=mail_1 error="SMTP 451, try later" retryAt=null$/);
  });

  test('an email address in any field or message is written [redacted], in both formats', () => {
    const lines: string[] = [];
    for (const format of ['json', 'text'] as const) {
      createLogger('info', (line) => lines.push(line), format).warn('refused for ada.l@example.co.uk', { error: '550 <ada.l@example.co.uk>: unknown user' });
    }
    for (const line of lines) {
      expect(line).not.toContain('example.co.uk');
      expect(line).toContain('[redacted]');
    }
  });
});

describe('svc serve with LOG_FORMAT', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('libsql');
  });
  afterAll(() => db.drop());

  test('LOG_FORMAT=text: readable lines, no JSON', async () => {
    const server = await startServe({ env: { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'info', LOG_FORMAT: 'text' } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    const lines = server.stderr().trimEnd().split('\n');
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
    expect(lines).toContainEqual(expect.stringMatching(/ INFO {2}svc listening url=http:\/\/127\.0\.0\.1:\d+ role=all database=file:/));
    expect(lines).toContainEqual(expect.stringMatching(/ INFO {2}request method=GET path=\/healthz route=\/healthz status=200 ms=[\d.]+ requestId=req_/));
    expect(lines.at(-1)).toMatch(/ INFO {2}stopped$/);
  });

  test('no LOG_FORMAT and stderr a pipe: JSON lines', async () => {
    const server = await startServe({ env: { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'info' } });
    expect(await server.stop()).toBe(0);
    const lines = server.stderr().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  test('LOG_FORMAT=xml: svc serve exits 2 naming the variable', async () => {
    const result = await runCli(['serve', '--port', '0'], { ...db.env, LOG_FORMAT: 'xml' });
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'svc serve: invalid configuration: LOG_FORMAT must be one of json, text (got "xml")\n' });
  });
});
