import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/*
 * svc runs on Bun and on Deno (docs/contract/operations.md): whatever differs between them sits in src/platform/runtime/. A
 * `Bun.` or `Deno.` call anywhere else in src/ or adapters/, or an import from `bun` or `bun:*`, fails here.
 * Comments and strings do not count: the sources are read with TypeScript's parser.
 */

const ROOT = join(import.meta.dir, '..', '..');
const RUNTIME_MODULE = 'src/platform/runtime/';

/** Every `Bun.`/`Deno.` use and every import from `bun`/`bun:*` in `source`, as `line: what`. */
function runtimeUses(source: string): string[] {
  const file = ts.createSourceFile('source.ts', source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const fromBun = (specifier: ts.Node | undefined) =>
    specifier !== undefined && ts.isStringLiteralLike(specifier) && (specifier.text === 'bun' || specifier.text.startsWith('bun:'));
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && ['Bun', 'Deno'].includes(node.expression.text)) {
      found.push(`${at(node)}: ${node.expression.text}.`);
    }
    if (
      ts.isPropertyAccessExpression(node)
      && ts.isIdentifier(node.expression)
      && node.expression.text === 'globalThis'
      && ['Bun', 'Deno'].includes(node.name.text)
    ) {
      found.push(`${at(node)}: globalThis.${node.name.text}`);
    }
    const specifier =
      ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
            ? node.argument.literal
            : undefined;
    if (fromBun(specifier)) found.push(`${at(node)}: import '${(specifier as ts.StringLiteralLike).text}'`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The TypeScript files under `dir`, relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

test('the check finds Bun./Deno. calls and bun imports in code, and not in comments or strings', () => {
  const sample = [
    "import type { Server } from 'bun';",
    "const hash = new Bun.CryptoHasher('sha256');",
    '// Bun.serve is not called here',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of source text with a template literal in it
    'const text = `Deno.serve ${"Bun.file"}`; /* Deno.exit() */ const pattern = /Bun\\.serve/;',
    'Deno.addSignalListener("SIGTERM", stop);',
    "const sqlite = await import('bun:sqlite');",
    'const dir = import.meta.dir; const Bunny = 1; Bunny.toString();',
    "let server: import('bun').Server<unknown>;",
    'const env = globalThis.Deno?.env;',
  ].join('\n');
  expect(runtimeUses(sample)).toEqual(["1: import 'bun'", '2: Bun.', '5: Deno.', "6: import 'bun:sqlite'", "8: import 'bun'", '9: globalThis.Deno']);
});

test('no Bun. or Deno. call and no import from bun outside src/platform/runtime/ (in src/ and adapters/)', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('adapters')].filter((file) => !file.startsWith(RUNTIME_MODULE));
  expect(files.length).toBeGreaterThan(100);
  const offending = files.flatMap((file) => runtimeUses(readFileSync(join(ROOT, file), 'utf8')).map((use) => `${file}:${use}`));
  expect(offending).toEqual([]);
});
