import { execFileSync } from 'node:child_process';
import packageJson from '../../package.json' with { type: 'json' };

/** Set by scripts/compile-binary.ts (`define`) in a compiled binary: the short hash of the commit it was built from. */
declare const SVC_BUILD_COMMIT: string | undefined;

/** svc's version, from package.json. */
export const VERSION: string = packageJson.version;

/**
 * The commit svc runs from: embedded at build time in a binary; from source, the checkout's short hash
 * (`git rev-parse`), or "dev" outside a git checkout. Asked only by `svc --version`, never at start-up.
 */
export function commit(): string {
  if (typeof SVC_BUILD_COMMIT === 'string') return SVC_BUILD_COMMIT;
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return hash || 'dev';
  } catch {
    return 'dev';
  }
}

/** What `svc --version` prints: `svc 0.1.0 (abc1234)`. */
export function versionLine(): string {
  return `svc ${VERSION} (${commit()})`;
}
