/**
 * `npm run build`: compiles src/main.ts, with everything it imports (migrations and browser bundles included),
 * into one self-contained executable, dist/svc, for this machine's platform (with a source map beside it).
 * `npm run release` builds every platform's (scripts/release.ts).
 */
import { join } from 'node:path';
import { compileBinary, gitCommit, ROOT } from './compile-binary.ts';

const outfile = join(ROOT, 'dist', 'svc');
await compileBinary({ outfile, commit: gitCommit() });
console.log(`built ${outfile}`);
