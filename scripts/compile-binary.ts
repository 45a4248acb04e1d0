/**
 * Compiles src/main.ts, with everything it imports (migrations and browser bundles included), into one
 * self-contained executable for a Bun target: used by `npm run build` (this machine) and `npm run release`
 * (every platform).
 *
 * libSQL picks its native addon with a computed `require` at run time, which a compiled binary cannot follow;
 * the plugin below replaces that line with a static require of the target's addon file, so Bun embeds the
 * `.node` file in the executable. npm installs only this platform's addon package; another target's is fetched
 * with `npm pack` (from the npm registry, at the version of the installed `libsql`) into a cache directory.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BunPlugin } from 'bun';

export const ROOT = join(import.meta.dir, '..');
const ADDON_CACHE = join(ROOT, 'node_modules', '.cache', 'svc', 'libsql-addons');

/** A platform svc is released for. */
export interface ReleaseTarget {
  /** Bun's compile target, e.g. `bun-linux-arm64` */
  bun: Bun.Build.CompileTarget;
  /** libSQL's name for the platform: the addon package is `@libsql/<libsql>` */
  libsql: string;
  /** the file name under dist/release */
  file: string;
}

export const RELEASE_TARGETS: ReleaseTarget[] = [
  { bun: 'bun-linux-x64', libsql: 'linux-x64-gnu', file: 'svc-linux-x64' },
  { bun: 'bun-linux-arm64', libsql: 'linux-arm64-gnu', file: 'svc-linux-arm64' },
  { bun: 'bun-darwin-x64', libsql: 'darwin-x64', file: 'svc-darwin-x64' },
  { bun: 'bun-darwin-arm64', libsql: 'darwin-arm64', file: 'svc-darwin-arm64' },
  { bun: 'bun-windows-x64', libsql: 'win32-x64-msvc', file: 'svc-windows-x64.exe' },
];

/** libSQL's name for the platform this process runs on (what `npm ci` installed the addon for). */
export function hostLibsqlPlatform(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  if (process.platform === 'linux') {
    const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  if (process.platform === 'darwin') return `darwin-${arch}`;
  return `win32-${arch}-msvc`;
}

function packageVersion(dir: string): string | null {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : null;
}

/**
 * The path of libSQL's native addon for `platform` (e.g. `darwin-arm64`), at the version the installed
 * `libsql` package expects: the installed one when npm put it in node_modules, else one fetched once with
 * `npm pack` and unpacked into node_modules/.cache/svc/libsql-addons/<platform>-<version>/.
 */
export function libsqlAddon(platform: string): string {
  const version = packageVersion(join(ROOT, 'node_modules', 'libsql'));
  if (!version) throw new Error('libsql is not installed: run npm ci');
  const installed = join(ROOT, 'node_modules', '@libsql', platform);
  if (packageVersion(installed) === version && existsSync(join(installed, 'index.node'))) return join(installed, 'index.node');

  const dir = join(ADDON_CACHE, `${platform}-${version}`);
  const addon = join(dir, 'index.node');
  if (existsSync(addon)) return addon;
  // A directory of this process's own: two builds at once (the release and Docker tests) each fetch, one keeps its copy.
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `@libsql/${platform}@${version}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { filename: string }[];
  const tarball = join(work, packed[0]!.filename);
  execFileSync('tar', ['-xzf', tarball, '-C', work, '--strip-components=1']);
  rmSync(tarball);
  if (!existsSync(join(work, 'index.node'))) throw new Error(`@libsql/${platform}@${version} has no index.node`);
  try {
    renameSync(work, dir);
  } catch (error) {
    // another build put it there first
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(addon)) throw error;
  }
  return addon;
}

function embedLibsqlAddon(addonPath: string): BunPlugin {
  return {
    name: 'embed-libsql-addon',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async ({ path }) => {
        const source = await Bun.file(path).text();
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of libsql's own source, matched verbatim
        const dynamicRequire = 'return require(`@libsql/${target}`);';
        if (!source.includes(dynamicRequire)) throw new Error('libsql changed how it loads its addon; update scripts/compile-binary.ts');
        return { contents: source.replace(dynamicRequire, `return require(${JSON.stringify(addonPath)});`), loader: 'js' };
      });
    },
  };
}

/** The checkout's short commit hash, `-dirty` when tracked files differ from it; "dev" outside git. */
export function gitCommit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash}-dirty` : hash;
  } catch {
    return 'dev';
  }
}

export interface CompileOptions {
  outfile: string;
  /** Bun's compile target; this machine's platform when omitted */
  target?: ReleaseTarget['bun'];
  /** libSQL's name for the target platform (default: this machine's) */
  libsqlPlatform?: string;
  /** release builds: minify identifiers too and write no source map */
  release?: boolean;
  /** embedded as the commit `svc --version` prints */
  commit: string;
}

export async function compileBinary(options: CompileOptions): Promise<void> {
  const addon = libsqlAddon(options.libsqlPlatform ?? hostLibsqlPlatform());
  const result = await Bun.build({
    entrypoints: [join(ROOT, 'src/main.ts')],
    compile: options.target ? { outfile: options.outfile, target: options.target } : { outfile: options.outfile },
    minify: options.release ? true : { syntax: true, whitespace: true },
    sourcemap: options.release ? 'none' : 'linked',
    // Bytecode compiled ahead: the runtime does not parse and compile svc's 1.7 MB of JavaScript at each start
    // (about 40 ms of the start-up), for 7 MB more binary (scripts/bench/README.md).
    bytecode: true,
    format: 'esm',
    define: { SVC_BUILD_COMMIT: JSON.stringify(options.commit) },
    plugins: [embedLibsqlAddon(addon)],
  });
  if (!result.success) {
    throw new AggregateError(result.logs, `compiling ${options.outfile} failed:\n${result.logs.map(String).join('\n')}`);
  }
}
