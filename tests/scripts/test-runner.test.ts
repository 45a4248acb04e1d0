import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failsRun, isCi, judgeRerun, parseQuarantine } from '../../scripts/test-verdict.ts';

const FILES = ['tests/a.test.ts', 'tests/wordpress/b.test.ts'];

describe('quarantine file', () => {
  test('path # reason lines are entries; comments and blank lines are skipped', () => {
    const text = '# header\n\n  # indented comment\ntests/a.test.ts # waits on a real clock, fix in #123\n';
    const quarantine = parseQuarantine(text, FILES);
    expect(quarantine.problems).toEqual([]);
    expect([...quarantine.reasons]).toEqual([['tests/a.test.ts', 'waits on a real clock, fix in #123']]);
  });

  test('a reason may itself hold " # "', () => {
    const quarantine = parseQuarantine('tests/a.test.ts # see issue # 7', FILES);
    expect(quarantine.reasons.get('tests/a.test.ts')).toBe('see issue # 7');
  });

  test('an entry without a reason is a problem and quarantines nothing', () => {
    const quarantine = parseQuarantine('# header\ntests/a.test.ts\ntests/wordpress/b.test.ts #   \n', FILES);
    expect(quarantine.reasons.size).toBe(0);
    expect(quarantine.problems).toEqual([
      'line 2: tests/a.test.ts has no reason (write it after " # ")',
      'line 3: tests/wordpress/b.test.ts has no reason (write it after " # ")',
    ]);
  });

  test('an entry naming no test file, or a file listed twice, is a problem', () => {
    const quarantine = parseQuarantine('tests/gone.test.ts # was flaky\ntests/a.test.ts # one\ntests/a.test.ts # two', FILES);
    expect(quarantine.problems).toEqual(['line 1: tests/gone.test.ts is not a test file', 'line 3: tests/a.test.ts is listed twice']);
    expect([...quarantine.reasons]).toEqual([['tests/a.test.ts', 'one']]);
  });

  test('the committed tests/quarantine.txt reads cleanly and quarantines nothing', () => {
    const text = readFileSync(join(import.meta.dirname, '../quarantine.txt'), 'utf8');
    const quarantine = parseQuarantine(text, FILES);
    expect(quarantine.problems).toEqual([]);
    expect(quarantine.reasons.size).toBe(0);
  });
});

describe('CI', () => {
  test('CI set to anything but empty, 0 or false is CI', () => {
    expect(isCi('true')).toBe(true);
    expect(isCi('1')).toBe(true);
    expect(isCi('TRUE')).toBe(true);
    expect(isCi(undefined)).toBe(false);
    expect(isCi('')).toBe(false);
    expect(isCi('0')).toBe(false);
    expect(isCi('false')).toBe(false);
  });
});

describe('a file that failed beside others, then ran alone', () => {
  test('failing alone too fails the run, in CI or not, quarantined or not', () => {
    for (const ci of [true, false]) {
      for (const reason of [undefined, 'known']) {
        expect(judgeRerun(false, ci, reason)).toBe('failed');
      }
    }
    expect(failsRun('failed')).toBe(true);
  });

  test('passing alone in CI is flaky and fails the run', () => {
    expect(judgeRerun(true, true, undefined)).toBe('flaky');
    expect(failsRun('flaky')).toBe(true);
  });

  test('passing alone outside CI is flaky but lets the run pass', () => {
    expect(judgeRerun(true, false, undefined)).toBe('flaky-tolerated');
    expect(failsRun('flaky-tolerated')).toBe(false);
  });

  test('passing alone when quarantined lets the run pass, in CI too', () => {
    expect(judgeRerun(true, true, 'waits on a real clock')).toBe('quarantined');
    expect(judgeRerun(true, false, 'waits on a real clock')).toBe('quarantined');
    expect(failsRun('quarantined')).toBe(false);
  });
});
