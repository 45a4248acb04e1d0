/**
 * `npm run build`: compiles src/main.ts, with everything it imports (migrations included), into one
 * self-contained executable, dist/svc, for this machine's platform.
 *
 * libSQL picks its native addon with a computed `require` at run time, which a compiled binary cannot
 * follow; the plugin below replaces that line with a static require of this platform's addon, so Bun
 * embeds the `.node` file in the executable.
 */
import { join } from 'node:path';
import type { BunPlugin } from 'bun';

const root = join(import.meta.dir, '..');
const outfile = join(root, 'dist', 'svc');

function libsqlNativeTarget(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  if (process.platform === 'linux') {
    const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  if (process.platform === 'darwin') return `darwin-${arch}`;
  return `win32-${arch}-msvc`;
}

const embedLibsqlAddon: BunPlugin = {
  name: 'embed-libsql-addon',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of libsql's own source, matched verbatim
      const dynamicRequire = 'return require(`@libsql/${target}`);';
      if (!source.includes(dynamicRequire)) throw new Error('libsql changed how it loads its addon; update scripts/build.ts');
      return { contents: source.replace(dynamicRequire, `return require("@libsql/${libsqlNativeTarget()}/index.node");`), loader: 'js' };
    });
  },
};

const result = await Bun.build({
  entrypoints: [join(root, 'src/main.ts')],
  compile: { outfile },
  minify: { syntax: true, whitespace: true },
  sourcemap: 'linked',
  plugins: [embedLibsqlAddon],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
