/**
 * `npm run plugin:zip`: dist/svc-booking.zip, the WordPress plugin exactly as WordPress installs it
 * (every file of plugins/wordpress/svc-booking under a top-level `svc-booking/` folder; nothing else).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { zipSync, type Zippable } from 'fflate';

const ROOT = join(import.meta.dir, '..');
export const PLUGIN_SOURCE = join(ROOT, 'plugins', 'wordpress', 'svc-booking');
export const PLUGIN_ZIP = join(ROOT, 'dist', 'svc-booking.zip');
/** A fixed time for every entry, so the same files give the same zip. */
const MTIME = new Date('2026-01-01T00:00:00Z');

/** The plugin's files, relative to its folder, sorted; dotfiles (editor and OS litter) are not part of it. */
export function pluginFiles(dir = PLUGIN_SOURCE): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path));
    }
  };
  walk(dir);
  return files;
}

export function buildPluginZip(target = PLUGIN_ZIP): string[] {
  const entries: Zippable = {};
  const files = pluginFiles();
  for (const file of files) entries[`svc-booking/${file}`] = [readFileSync(join(PLUGIN_SOURCE, file)), { mtime: MTIME }];
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, zipSync(entries, { level: 9 }));
  return files;
}

if (import.meta.main) {
  const files = buildPluginZip();
  console.log(`${relative(process.cwd(), PLUGIN_ZIP)}: ${files.length} files`);
}
