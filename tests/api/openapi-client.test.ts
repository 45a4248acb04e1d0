import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { createTestApp, type TestApp } from '../support/app.ts';

const ROOT = resolve(import.meta.dir, '../..');

/** A strict project of its own: the generated schema, the typed calls, and the app's node_modules. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'Preserve',
    moduleResolution: 'bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
  },
  files: ['calls.ts'],
};

describe('a client generated from the served OpenAPI document', () => {
  let ctx: TestApp;
  let dir: string;
  beforeAll(async () => {
    ctx = await createTestApp('libsql', { config: { SVC_WEBHOOK_ALLOW_PRIVATE: true } });
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-client-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const served = await ctx.request('GET', '/api/v1/openapi.json');
    expect(served.status).toBe(200);
    writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(served.body)));
    cpSync(join(import.meta.dir, 'typed-client/calls.ts'), join(dir, 'calls.ts'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('type-checks typed calls with openapi-fetch, and a wrong body or query is a type error', () => {
    const tsc = Bun.spawnSync([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { stdout: 'pipe', stderr: 'pipe' });
    // an unused @ts-expect-error is itself an error (TS2578): the wrong calls must really be wrong
    expect(`${tsc.stdout.toString()}${tsc.stderr.toString()}`).toBe('');
    expect(tsc.exitCode).toBe(0);
  }, 60_000);

  test('the same calls work against the server, and the calls the types refuse are refused by it too', async () => {
    const { exercise } = await import(join(dir, 'calls.ts'));
    const result = await exercise((request: Request) => ctx.app.handle(request), ctx.workspace.slug, ctx.apiKey);
    expect(result).toEqual({
      service: 200,
      created: { status: 200, bookingStatus: 'CONFIRMED', checkoutUrl: null },
      listed: { status: 200, ids: [result.bookingId], nextCursor: null },
      patched: { status: 200, price: 40 },
      webhook: { status: 200, secretPrefix: 'whsec_', events: ['booking.created', 'booking.cancelled'] },
      missingDate: { status: 400, code: 'VALIDATION_ERROR' },
      wrongStatus: { status: 400, code: 'VALIDATION_ERROR' },
      bookingId: expect.stringMatching(/^bk_/),
    });
  });
});
