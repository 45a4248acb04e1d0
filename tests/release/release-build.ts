import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommit, RELEASE_TARGETS, ROOT } from '../../scripts/compile-binary.ts';
import { BUN } from '../support/process.ts';

export interface ReleaseBuild {
  /** the directory holding the binaries and SHA256SUMS */
  dir: string;
  /** the commit the binaries embed (what `--version` prints) */
  commit: string;
  /** removes a private build; leaves dist/release alone */
  remove(): void;
}

/**
 * The release binaries the tests check: dist/release when `npm run release` made all of it from HEAD with no
 * uncommitted change (CI runs it once, before the tests), else a private set built now (`npm run release
 * --outdir`) into a temporary directory, so a test never checks stale binaries nor overwrites dist/release.
 */
export async function releaseBuild(): Promise<ReleaseBuild> {
  const commit = gitCommit();
  const dist = join(ROOT, 'dist', 'release');
  const complete = [...RELEASE_TARGETS.map((target) => target.file), 'SHA256SUMS'].every((file) => existsSync(join(dist, file)));
  const clean = commit !== 'dev' && !commit.endsWith('-dirty');
  // The commit is embedded as a string literal: a binary from HEAD holds `"<hash>"`.
  if (complete && clean && readFileSync(join(dist, 'svc-linux-x64')).includes(JSON.stringify(commit))) {
    console.log(`release test: checking dist/release, built from ${commit}`);
    return { dir: dist, commit, remove() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-release-'));
  console.log(`release test: dist/release is missing or not from ${commit}; building a private set in ${dir}`);
  const child = Bun.spawn({ cmd: [BUN, join(ROOT, 'scripts/release.ts'), '--outdir', dir], cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`npm run release failed (${code}):\n${stdout}${stderr}`);
  }
  return { dir, commit, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A keyed call to the `acme` workspace of the svc answering at `baseUrl()` (read when called: the server starts
 * after the helper is made); anything but 200 throws with the answer.
 */
export function acmeApi(baseUrl: () => string, apiKey: () => string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl()}/api/v1/workspaces/acme${path}`, {
      method,
      headers: { 'x-svc-api-key': apiKey(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as any;
    if (response.status !== 200) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}
