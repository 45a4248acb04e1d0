import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestApp, type TestApp } from '../support/app.ts';

const ROOT = resolve(import.meta.dir, '../..');

describe('redocly lint', () => {
  let ctx: TestApp;
  let dir: string;
  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('finds no error and no warning in the served document (rules: redocly.yaml)', async () => {
    const served = await ctx.request('GET', '/api/v1/openapi.json');
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(served.body));
    const lint = Bun.spawnSync(
      ['node', join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format=json', file],
      {
        stdout: 'pipe',
        stderr: 'pipe',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout.toString());
    expect(
      report.problems.map(
        (problem: { ruleId: string; message: string; location: { pointer: string }[] }) =>
          `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
      ),
    ).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(lint.exitCode).toBe(0);
  }, 60_000);
});
