/**
 * `npm run release`: one executable per platform in dist/release (svc-linux-x64, svc-linux-arm64, svc-darwin-x64,
 * svc-darwin-arm64, svc-windows-x64.exe), minified, without source maps, each embedding its platform's libSQL
 * addon, and SHA256SUMS in the format `sha256sum -c` reads. Bun fetches each target's runtime from the npm
 * registry, and scripts/compile-binary.ts the addons, once; later runs work offline.
 *
 * `--outdir DIR` writes them somewhere else (tests build a private set when dist/release is not from HEAD).
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureWebAssets } from './build-web.ts';
import { compileBinary, gitCommit, RELEASE_TARGETS, ROOT } from './compile-binary.ts';

// `--outdir DIR` (tests): somewhere else than dist/release.
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = resolve(values.outdir ?? join(ROOT, 'dist', 'release'));
const shown = relative(process.cwd(), outdir) || '.';

function sha256(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done(hash.digest('hex')))
      .on('error', fail);
  });
}

await ensureWebAssets();
const commit = gitCommit();
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const sums: string[] = [];
for (const target of RELEASE_TARGETS) {
  const started = performance.now();
  const outfile = join(outdir, target.file);
  await compileBinary({ outfile, target: target.bun, libsqlPlatform: target.libsql, release: true, commit });
  sums.push(`${await sha256(outfile)}  ${target.file}`);
  const mib = (statSync(outfile).size / 2 ** 20).toFixed(1);
  console.log(`built ${join(shown, target.file)} (${mib} MiB, ${Math.round(performance.now() - started)} ms)`);
}
writeFileSync(join(outdir, 'SHA256SUMS'), sums.join('\n') + '\n');
console.log(`wrote ${join(shown, 'SHA256SUMS')}; svc ${commit}`);
