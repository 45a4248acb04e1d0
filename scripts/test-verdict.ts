// What a test file's runs mean for `npm test` (scripts/test.ts), kept apart from the runner so a test can check it.
//
// The rule: a file that fails beside other files runs once more alone. If it fails alone too, it failed. If it
// passes alone it is FLAKY: in CI (`CI` set) that still fails the run, so load-dependent tests get fixed rather
// than hidden; outside CI the run passes and the summary says the file failed once. A file listed in the quarantine
// file (tests/quarantine.txt, one path a line and a mandatory reason after ` # `) is tolerated when it passes alone,
// in CI too. A file that fails alone fails the run whether quarantined or not.

/** The quarantine file: test file path -> why it is tolerated, and the lines that could not be read. */
export interface Quarantine {
  reasons: Map<string, string>;
  problems: string[];
}

/**
 * Reads the quarantine file's text. Blank lines and lines starting with `#` are comments; every other line is
 * `path # reason`, the reason mandatory. `knownFiles` are the test files (paths relative to the repository root):
 * an entry naming another file is a problem, so a stale entry cannot linger.
 */
export function parseQuarantine(text: string, knownFiles: readonly string[]): Quarantine {
  const known = new Set(knownFiles);
  const reasons = new Map<string, string>();
  const problems: string[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `line ${index + 1}`;
    const separator = line.match(/\s#(\s|$)/);
    const path = (separator ? line.slice(0, separator.index) : line).trim();
    const reason = separator ? line.slice(separator.index! + separator[0].length).trim() : '';
    if (reason === '') {
      problems.push(`${where}: ${path} has no reason (write it after " # ")`);
    } else if (!known.has(path)) {
      problems.push(`${where}: ${path} is not a test file`);
    } else if (reasons.has(path)) {
      problems.push(`${where}: ${path} is listed twice`);
    } else {
      reasons.set(path, reason);
    }
  }
  return { reasons, problems };
}

/** Whether `CI` asks for the strict rule: set to anything but empty, `0` or `false`. */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

/**
 * The verdict on a file that failed beside other files and then ran once alone:
 * - `failed`: it failed alone too;
 * - `flaky`: it passed alone, is not quarantined, and CI is set: the run fails;
 * - `flaky-tolerated`: the same outside CI: the run passes, the summary says it failed once;
 * - `quarantined`: it passed alone and the quarantine file lists it: the run passes.
 */
export type RerunVerdict = 'failed' | 'flaky' | 'flaky-tolerated' | 'quarantined';

export function judgeRerun(passedAlone: boolean, ci: boolean, quarantineReason: string | undefined): RerunVerdict {
  if (!passedAlone) return 'failed';
  if (quarantineReason !== undefined) return 'quarantined';
  return ci ? 'flaky' : 'flaky-tolerated';
}

/** Whether a verdict fails the run (exit code 1, and counted among the failures of the closing line). */
export function failsRun(verdict: RerunVerdict): boolean {
  return verdict === 'failed' || verdict === 'flaky';
}
